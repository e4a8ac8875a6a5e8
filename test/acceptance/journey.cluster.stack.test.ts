import { startSmtpSink } from '../conformance/mail-sink.js';
import { startCluster } from './cluster.js';
import { ADMIN_ENV, describeJourney } from './journey.contract.js';

describeJourney('cluster profile, two gateways sharing Redis', async () => {
  const sink = await startSmtpSink();
  const cluster = await startCluster({ SMTP_URL: sink.url, ...ADMIN_ENV });
  return {
    gateways: cluster.processes.map((p) => p.url),
    sink,
    stop: async () => {
      await cluster.stop();
      await sink.close();
    },
  };
});
