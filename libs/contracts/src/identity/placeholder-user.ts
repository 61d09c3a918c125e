import type { UserDto } from './user.dto.js';

const EPOCH = '1970-01-01T00:00:00Z';

/** For a user identity-service did not return (deleted meanwhile); Gitea's "Ghost" is `placeholderUser(-1, 'Ghost', …)`. */
export function placeholderUser(id: number, login: string, rootUrl: string): UserDto {
  return {
    id,
    login,
    login_name: '',
    source_id: 0,
    full_name: '',
    email: '',
    avatar_url: '',
    html_url: `${rootUrl}${login}`,
    language: '',
    is_admin: false,
    last_login: EPOCH,
    created: EPOCH,
    restricted: false,
    active: false,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: login,
  };
}
