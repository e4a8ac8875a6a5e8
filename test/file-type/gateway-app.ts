import type { FastifyInstance } from 'fastify';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundPolicy } from '../../core/outbound/outbound.js';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { createFileTypeService } from '../../services/file-type/service.js';
import type { TestPlatform } from '../support/platform.js';

/**
 * The platform's real gateway (auth, scopes, rate limits, metering, conventions, documents) with the file-type
 * service added, its outbound client under `policy` (default: nothing non-public allowed).
 */
export async function fileTypeApp(
  tp: TestPlatform,
  policy: Partial<OutboundPolicy> = {},
): Promise<FastifyInstance> {
  const outbound = createOutboundClient({ allowCidrs: [], userAgent: 'Toolgate-test/1', ...policy });
  const app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'file-type'),
      createFileTypeService({ outbound }),
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, 'test')],
  });
  await app.ready();
  return app;
}

/** A multipart/form-data body with one file part, as `fetch` sends it. */
export async function multipart(
  file: Buffer,
  filename: string,
  type = 'application/octet-stream',
  field = 'file',
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const fd = new FormData();
  fd.append(field, new Blob([file], { type }), filename);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  };
}
