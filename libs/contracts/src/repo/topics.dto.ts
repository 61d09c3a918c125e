import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;
export const TOPIC_MAX_LENGTH = 35;
export const TOPICS_PER_REPO_MAX = 25;

/** Trimmed and lower-cased as Gitea does before validating. */
export function sanitizeTopic(topic: string): string {
  return topic.trim().toLowerCase();
}

export function isValidTopic(topic: string): boolean {
  return topic.length <= TOPIC_MAX_LENGTH && TOPIC_PATTERN.test(topic);
}

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

export class RepoTopicOptionsBody {
  /** Well above the 25 allowed, so an over-long list is answered with Gitea's own message. */
  @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(255, { each: true }) topics: string[];
}

export interface TopicNamesDto {
  topics: string[];
}

export class ListTopicsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export interface ListTopicsReply {
  topics: string[];
  total: number;
}

export class ReplaceTopicsRequest extends RepoScopedRequest {
  @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(255, { each: true }) topics: string[];
}

export class TopicRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) topic: string;
}
