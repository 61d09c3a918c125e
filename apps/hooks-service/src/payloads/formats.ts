// Non-native hook types get a chat message from one summary; gitea/gogs send Gitea's JSON (indented, as Gitea).

interface Summary {
  title: string;
  text: string;
  url: string;
  sender: { login: string; html_url: string; avatar_url: string } | null;
  color: number;
}

const GREEN = 0x2ecc71;
const RED = 0xe74c3c;
const BLUE = 0x3498db;
const GREY = 0x95a5a6;

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}
function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

function repoName(p: Json): string {
  const r = obj(p.repository);
  return str(r.full_name ?? r.name);
}
function repoUrl(p: Json): string {
  return str(obj(p.repository).html_url);
}
function senderOf(p: Json): Summary['sender'] {
  const s = obj(p.sender ?? p.pusher);
  return Object.keys(s).length
    ? { login: str(s.login ?? s.username), html_url: str(s.html_url), avatar_url: str(s.avatar_url) }
    : null;
}

export function summarize(eventType: string, p: Json): Summary {
  const repo = repoName(p);
  const sender = senderOf(p);
  const who = sender?.login ? ` by ${sender.login}` : '';
  switch (eventType) {
    case 'push': {
      const branch = str(p.ref).replace(/^refs\/(heads|tags)\//, '');
      const commits = Array.isArray(p.commits) ? p.commits.map(obj) : [];
      const n = Number(p.total_commits ?? commits.length);
      const lines = commits.map(
        (c) => `${str(c.id).slice(0, 10)}: ${str(c.message).split('\n')[0]} - ${str(obj(c.author).name)}`,
      );
      return {
        title: `[${repo}:${branch}] ${n} new commit${n === 1 ? '' : 's'}`,
        text: lines.join('\n'),
        url: str(p.compare_url) || str(obj(p.head_commit).url) || repoUrl(p),
        sender,
        color: BLUE,
      };
    }
    case 'create':
      return {
        title: `[${repo}] ${str(p.ref_type)} ${str(p.ref)} created${who}`,
        text: '',
        url: `${repoUrl(p)}/src/${str(p.ref_type)}/${str(p.ref)}`,
        sender,
        color: GREEN,
      };
    case 'delete':
      return { title: `[${repo}] ${str(p.ref_type)} ${str(p.ref)} deleted${who}`, text: '', url: repoUrl(p), sender, color: RED };
    case 'repository':
      return {
        title: `[${repo}] Repository ${str(p.action)}${who}`,
        text: '',
        url: repoUrl(p),
        sender,
        color: p.action === 'deleted' ? RED : GREEN,
      };
    case 'status': {
      // Gitea's chat text for a status: "Commit Status changed: <context>[<sha>]:<description>".
      const failed = p.state === 'failure' || p.state === 'error';
      return {
        title: `[${repo}] Commit Status changed: ${str(p.context)}[${str(p.sha)}]:${str(p.description)}${who}`,
        text: '',
        url: str(p.target_url) || repoUrl(p),
        sender,
        color: failed ? RED : p.state === 'success' ? GREEN : GREY,
      };
    }
    default: {
      const item = obj(p.pull_request ?? p.issue ?? p.release ?? p.package);
      const comment = obj(p.comment);
      const number = item.number !== undefined ? ` #${str(item.number)}` : '';
      const name = str(item.title ?? item.name ?? item.tag_name);
      const action = p.action ? ` ${str(p.action)}` : '';
      return {
        title: `[${repo}] ${eventType.replace(/_/g, ' ')}${action}${number}${name ? `: ${name}` : ''}${who}`,
        text: str(comment.body ?? item.body).slice(0, 1000),
        url: str(comment.html_url ?? item.html_url) || repoUrl(p),
        sender,
        color: GREY,
      };
    }
  }
}

function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface RenderedPayload {
  body: string;
  /** Matrix uses PUT to `<url>/<txnId>`. */
  method: 'POST' | 'PUT';
}

export const NATIVE_TYPES = new Set(['gitea', 'gogs']);

/** Null when this type skips the event (Gitea sends chat hooks no push without commits). */
export function renderPayload(
  type: string,
  eventType: string,
  payload: Json,
  meta: Record<string, string>,
  commitCount?: number,
): RenderedPayload | null {
  if (NATIVE_TYPES.has(type)) return { body: JSON.stringify(payload, null, 2), method: 'POST' };
  if (eventType === 'push' && commitCount === 0) return null;
  const s = summarize(eventType, payload);
  const hex = `#${s.color.toString(16).padStart(6, '0')}`;
  const post = (obj: unknown): RenderedPayload => ({ body: JSON.stringify(obj), method: 'POST' });
  switch (type) {
    case 'slack':
      return post({
        channel: meta.channel,
        text: `<${s.url}|${s.title}>`,
        username: meta.username || undefined,
        icon_url: meta.icon_url || undefined,
        attachments: s.text ? [{ color: meta.color || hex, title: s.title, title_link: s.url, text: s.text }] : [],
      });
    case 'discord':
      return post({
        username: meta.username || undefined,
        avatar_url: meta.icon_url || undefined,
        embeds: [
          {
            title: s.title,
            description: s.text,
            url: s.url,
            color: s.color,
            author: s.sender ? { name: s.sender.login, url: s.sender.html_url, icon_url: s.sender.avatar_url } : undefined,
          },
        ],
      });
    case 'msteams':
      return post({
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        themeColor: hex.slice(1),
        title: s.title,
        summary: s.title,
        sections: [{ activityTitle: s.sender?.login ?? '', activityImage: s.sender?.avatar_url ?? '', text: s.text }],
        potentialAction: [{ '@type': 'OpenUri', name: 'View', targets: [{ os: 'default', uri: s.url }] }],
      });
    case 'dingtalk':
      return post({
        msgtype: 'actionCard',
        actionCard: { text: `${s.title}\n\n${s.text}`, title: s.title, hideAvatar: '0', singleTitle: 'view', singleURL: s.url },
      });
    case 'telegram':
      return post({
        parse_mode: 'html',
        text: `<a href="${htmlEscape(s.url)}">${htmlEscape(s.title)}</a>${s.text ? `\n${htmlEscape(s.text)}` : ''}`,
      });
    case 'feishu':
      return post({ msg_type: 'text', content: { text: `${s.title}\n${s.text}`.trim() } });
    case 'wechatwork':
      return post({ msgtype: 'markdown', markdown: { content: `# ${s.title}\n${s.text}`.trim() } });
    case 'matrix':
      return {
        body: JSON.stringify({
          body: `[${s.title}](${s.url})${s.text ? `\n${s.text}` : ''}`,
          msgtype: meta.message_type || 'm.notice',
          format: 'org.matrix.custom.html',
          formatted_body: `<a href="${htmlEscape(s.url)}">${htmlEscape(s.title)}</a>${s.text ? `<br>${htmlEscape(s.text).replace(/\n/g, '<br>')}` : ''}`,
        }),
        method: 'PUT',
      };
    case 'packagist':
      return post({ repository: { url: meta.package_url ?? '' } });
    default:
      return { body: JSON.stringify(payload, null, 2), method: 'POST' };
  }
}
