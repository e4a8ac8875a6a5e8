export type HealthState = 'UP' | 'DOWN';

export interface ComponentHealth {
  readonly status: HealthState;
  /** Facts an operator needs (profile, lag, versions); never a URL with credentials or an error stack. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface HealthReport {
  readonly status: HealthState;
  readonly components: Readonly<Record<string, ComponentHealth>>;
}

export type HealthCheck = () => Promise<Readonly<Record<string, unknown>> | undefined>;

/** Runs every check concurrently with a time limit; one failing component marks the report DOWN. */
export async function checkHealth(
  checks: Readonly<Record<string, HealthCheck>>,
  timeoutMs = 2000,
): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, ComponentHealth]> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const details = await Promise.race([
          check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, { status: 'UP', ...(details ? { details } : {}) }];
      } catch (err) {
        return [name, { status: 'DOWN', details: { error: describe(err) } }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const components = Object.fromEntries(entries);
  return { status: entries.every(([, c]) => c.status === 'UP') ? 'UP' : 'DOWN', components };
}

/** The error's class and first line only: driver messages can carry hosts, but never stacks or credentials. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const first = (err.message.split('\n')[0] ?? '').replace(/\/\/[^@/\s]*@/g, '//***@').slice(0, 200);
  return `${err.name}: ${first}`;
}
