import { AppError, type ErrorCode } from '../../core/errors/catalogue.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { checkSyntax, type Mode, type Outcome, validateText, validateValue } from './validate.js';

/**
 * One validation as plain data, so it can cross a worker boundary (structured clone): what the routes ask
 * for, with the profile already resolved to its schema.
 */
export type ValidationJob =
  | { readonly op: 'text'; readonly json: string; readonly mode: Mode; readonly schema?: unknown }
  | { readonly op: 'value'; readonly document: unknown; readonly schema: unknown }
  | { readonly op: 'syntax'; readonly json: string };

/** A refusal keeps its catalogue code and message (AppError itself does not survive structured clone). */
export type JobResult =
  | { readonly ok: true; readonly outcome: Outcome }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string };

/** Runs the job in the calling thread. */
export async function runJob(job: ValidationJob, compiler: SchemaCompiler): Promise<JobResult> {
  try {
    switch (job.op) {
      case 'text':
        return { ok: true, outcome: await validateText(job, compiler) };
      case 'value':
        return { ok: true, outcome: await validateValue(job.document, job.schema, compiler) };
      case 'syntax':
        return { ok: true, outcome: checkSyntax(job.json) };
    }
  } catch (e) {
    if (e instanceof AppError) return { ok: false, code: e.code, message: e.message };
    throw e;
  }
}

/** Where jobs run: in a worker pool (the service's default) or in the calling thread (tests, tools). */
export interface JobRunner {
  run(job: ValidationJob): Promise<JobResult>;
}

export const inThreadRunner = (compiler: SchemaCompiler): JobRunner => ({
  run: (job) => runJob(job, compiler),
});
