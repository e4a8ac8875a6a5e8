import { startSmtpSink } from '../conformance/mail-sink.js';
import { startToolgate, tempDir } from './harness.js';
import { ADMIN_ENV, describeJourney } from './journey.contract.js';

describeJourney('embedded profile, one process', async () => {
  const sink = await startSmtpSink();
  const dir = tempDir();
  const tg = await startToolgate('start', { DATA_DIR: dir.path, SMTP_URL: sink.url, ...ADMIN_ENV });
  return {
    gateways: [tg.url],
    sink,
    stop: async () => {
      await tg.stop();
      await sink.close();
      dir.remove();
    },
  };
});
