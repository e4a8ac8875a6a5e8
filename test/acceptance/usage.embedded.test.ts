import { startSmtpSink } from '../conformance/mail-sink.js';
import { loadPlanFile, startToolgate, type Toolgate, tempDir } from './harness.js';
import { describeExactUsage } from './usage.contract.js';

describeExactUsage('embedded profile', async () => {
  const sink = await startSmtpSink();
  const dir = tempDir();
  const env = {
    DATA_DIR: dir.path,
    SMTP_URL: sink.url,
    PLANS_FILE: loadPlanFile(dir.path),
    DEFAULT_PLAN: 'LOAD',
  };
  const running: Toolgate[] = [await startToolgate('start', env)];
  return {
    gateways: [running[0]!],
    sink,
    restart: async () => {
      const next = await startToolgate('start', env);
      running.push(next);
      return next;
    },
    stop: async () => {
      for (const t of running) await t.stop();
      await sink.close();
      dir.remove();
    },
  };
});
