import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { NewEvent } from './envelope.js';
import { InvalidEventError } from './errors.js';

export const EVENT_SCHEMA_DIR = fileURLToPath(new URL('../../schemas/events/', import.meta.url));

/**
 * Payload schemas of every event type, loaded from schemas/events/ (one file per type and version,
 * `title` = event type). Appends of an unknown type or an invalid payload are refused.
 */
export class EventSchemaRegistry {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    addFormats.default(this.ajv);
  }

  static fromDirectory(dir: string = EVENT_SCHEMA_DIR): EventSchemaRegistry {
    const registry = new EventSchemaRegistry();
    for (const file of listJson(dir)) registry.register(JSON.parse(readFileSync(file, 'utf8')));
    return registry;
  }

  register(schema: { title?: unknown } & Record<string, unknown>): this {
    if (typeof schema.title !== 'string') throw new Error('event schema needs a title naming the event type');
    if (this.validators.has(schema.title)) throw new Error(`event type ${schema.title} registered twice`);
    this.validators.set(schema.title, this.ajv.compile(schema));
    return this;
  }

  types(): string[] {
    return [...this.validators.keys()].sort();
  }

  /** Throws InvalidEventError naming every problem. */
  check(event: NewEvent): void {
    const validate = this.validators.get(event.type);
    if (!validate)
      throw new InvalidEventError(event.type, ['no schema for this event type in schemas/events/']);
    if (!validate(event.data)) {
      throw new InvalidEventError(
        event.type,
        (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`),
      );
    }
  }
}

function listJson(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return listJson(path);
      return name.endsWith('.json') ? [path] : [];
    });
}
