import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's topic rules (`models/repo/topic.go`): lower-case letters, digits, `-` and `.`, starting with a letter or digit. */
export const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;
/** The longest topic Gitea accepts. */
export const TOPIC_MAX_LENGTH = 35;
/** The most topics one repository may have. */
export const TOPICS_PER_REPO_MAX = 25;

/** One topic as given by a client, trimmed and lower-cased as Gitea does before validating. */
export function sanitizeTopic(topic: string): string {
  return topic.trim().toLowerCase();
}

/** Whether a sanitized topic is acceptable (Gitea's `ValidateTopic`). */
export function isValidTopic(topic: string): boolean {
  return topic.length <= TOPIC_MAX_LENGTH && TOPIC_PATTERN.test(topic);
}

/**
 * Gitea's `SanitizeAndValidateTopics`: sanitized, empty ones dropped, duplicates kept once; the invalid ones apart.
 */
export function sanitizeTopics(topics: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of topics) {
    const topic = sanitizeTopic(raw);
    if (!topic || valid.includes(topic)) continue;
    (isValidTopic(topic) ? valid : invalid).push(topic);
  }
  return { valid, invalid };
}

/** `PUT /repos/{owner}/{repo}/topics` body (Gitea's `RepoTopicOptions`). */
export class RepoTopicOptionsBody {
  /** Bounded well above the 25 allowed, so an over-long list is answered with Gitea's own message. */
  @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(255, { each: true }) topics: string[];
}

/** Gitea's `TopicName`: the body of `GET /repos/{owner}/{repo}/topics`. */
export interface TopicNamesDto {
  topics: string[];
}

/** `repo.topic.list`: a page of the repository's topics (sorted by name). */
export class ListTopicsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.topic.list` reply. */
export interface ListTopicsReply {
  topics: string[];
  total: number;
}

/** `repo.topic.replace`: set the repository's topics (repo admin). Invalid names → UNPROCESSABLE with them as details. */
export class ReplaceTopicsRequest extends RepoScopedRequest {
  @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(255, { each: true }) topics: string[];
}

/** `repo.topic.add` / `repo.topic.delete`: one topic (repo admin). */
export class TopicRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) topic: string;
}
