import { Injectable } from '@nestjs/common';
import {
  DomainError, TOPICS_PER_REPO_MAX, isValidTopic, sanitizeTopic, sanitizeTopics, toPaging,
  type ListTopicsReply, type ListTopicsRequest, type ReplaceTopicsRequest, type TopicRequest,
} from '@cairn/contracts';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { inTx, PRISMA_TX_LIMITS } from '../../foundation/prisma/tx.js';
import { RepositoriesRepository } from '../repositories/repositories.repository.js';


/** A sorted array on the repository row, as Gitea keeps them for rendering; search uses a GIN index on it. */
@Injectable()
export class TopicsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly repositories: RepositoriesRepository,
  ) {}

  async list(req: ListTopicsRequest): Promise<ListTopicsReply> {
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    const paging = toPaging(req.query);
    return { topics: row.topics.slice(paging.skip, paging.skip + paging.take), total: row.topics.length };
  }

  async replace(req: ReplaceTopicsRequest): Promise<void> {
    const { valid, invalid } = sanitizeTopics(req.topics);
    // Gitea checks the count first, then the names.
    if (valid.length > TOPICS_PER_REPO_MAX) {
      throw DomainError.unprocessable('Exceeding maximum number of topics per repo');
    }
    if (invalid.length) throw DomainError.unprocessable('Topic names are invalid', invalid);
    await this.repositories.setTopics(this.prisma, req.repo.id, valid);
  }

  /** Adding a topic the repository has already is a success that changes nothing, as in Gitea. */
  async add(req: TopicRequest): Promise<void> {
    const topic = this.validOne(req.topic);
    await inTx(this.prisma, async (tx) => {
      // The row is locked: two concurrent additions must not both pass the count check.
      const topics = await this.locked(tx, req.repo.id);
      if (topics.includes(topic)) return;
      if (topics.length >= TOPICS_PER_REPO_MAX) throw DomainError.unprocessable('Exceeding maximum allowed topics per repo.');
      await this.repositories.setTopics(tx, req.repo.id, [...topics, topic]);
    }, PRISMA_TX_LIMITS);
  }

  async delete(req: TopicRequest): Promise<void> {
    const topic = this.validOne(req.topic);
    await inTx(this.prisma, async (tx) => {
      const topics = await this.locked(tx, req.repo.id);
      if (!topics.includes(topic)) throw DomainError.notFound(`topic "${topic}" is not set on the repository`);
      await this.repositories.setTopics(tx, req.repo.id, topics.filter((t) => t !== topic));
    }, PRISMA_TX_LIMITS);
  }

  private async locked(tx: Tx, repoId: number): Promise<string[]> {
    const topics = await this.repositories.lockTopics(tx, repoId);
    if (!topics) throw DomainError.notFound('repository not found');
    return topics;
  }

  private validOne(raw: string): string {
    const topic = sanitizeTopic(raw);
    if (!isValidTopic(topic)) throw DomainError.unprocessable('Topic name is invalid', [topic]);
    return topic;
  }
}
