import type { LoggerService, LogLevel } from '@nestjs/common';
import { currentCorrelationId } from './correlation.js';
import { currentTraceIds } from '../tracing/trace-context.js';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Never pass secrets to it: callers log ids and names, not tokens, passwords or payloads. */
export class JsonLogger implements LoggerService {
  private readonly maxLevel: number;

  constructor(
    private readonly service: string,
    level: LogLevel = (process.env.LOG_LEVEL as LogLevel) || 'log',
  ) {
    this.maxLevel = Math.max(0, LEVELS.indexOf(level));
  }

  private write(level: LogLevel, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    if (LEVELS.indexOf(level) > this.maxLevel) return;
    const line = {
      t: new Date().toISOString(),
      level,
      service: this.service,
      ...(context ? { context } : {}),
      ...(currentCorrelationId() ? { rid: currentCorrelationId() } : {}),
      ...currentTraceIds(),
      msg: message instanceof Error ? message.message : message,
      ...extra,
    };
    const out = level === 'error' || level === 'fatal' ? process.stderr : process.stdout;
    out.write(`${JSON.stringify(line)}\n`);
  }

  log(message: unknown, context?: string): void {
    this.write('log', message, context);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context ? stackOrContext : message instanceof Error ? message.stack : undefined;
    this.write('error', message, context ?? (stack ? undefined : stackOrContext), stack ? { stack } : undefined);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('verbose', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }
}
