import { Injectable } from '@nestjs/common';
import type { Task } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export interface NewLogRow {
  time: Date;
  content: string;
}

@Injectable()
export class TasksRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(id: number): Promise<Task | null> {
    return this.prisma.task.findUnique({ where: { id } });
  }

  update(id: number, data: Pick<Partial<Task>, 'status' | 'startedAt' | 'stoppedAt'>): Promise<Task> {
    return this.prisma.task.update({ where: { id }, data });
  }

  /** Stores outputs whose key the task has not reported yet (the first value of a key wins, as in Gitea). */
  async addOutputs(taskId: number, outputs: Array<[key: string, value: string]>): Promise<void> {
    await this.prisma.taskOutput.createMany({
      data: outputs.map(([key, value]) => ({ taskId, key, value })),
      skipDuplicates: true,
    });
  }

  async outputKeys(taskId: number): Promise<string[]> {
    const rows = await this.prisma.taskOutput.findMany({ where: { taskId }, select: { key: true }, orderBy: { key: 'asc' } });
    return rows.map((o) => o.key);
  }

  /** The new length, or null when it was no longer `at` (a concurrent upload appended first). */
  appendLog(taskId: number, at: number, rows: NewLogRow[], size: number): Promise<number | null> {
    return this.prisma.$transaction(async (tx) => {
      const moved = await tx.task.updateMany({
        where: { id: taskId, logLength: at },
        data: { logLength: { increment: rows.length }, logSize: { increment: size } },
      });
      if (moved.count === 0) return null;
      await tx.taskLog.createMany({ data: rows.map((r, i) => ({ taskId, index: at + i, time: r.time, content: r.content })) });
      return at + rows.length;
    });
  }

  async logLength(taskId: number): Promise<number> {
    return (await this.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { logLength: true } })).logLength;
  }
}
