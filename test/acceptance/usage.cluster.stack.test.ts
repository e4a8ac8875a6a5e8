import { startSmtpSink } from '../conformance/mail-sink.js';
import { startCluster } from './cluster.js';
import { loadPlanFile, tempDir } from './harness.js';
import { describeExactUsage } from './usage.contract.js';

describeExactUsage('cluster profile, load over two gateways, one SIGKILLed', async () => {
  const sink = await startSmtpSink();
  const plans = tempDir();
  const cluster = await startCluster({
    SMTP_URL: sink.url,
    PLANS_FILE: loadPlanFile(plans.path),
    DEFAULT_PLAN: 'LOAD',
  });
  return {
    gateways: cluster.processes,
    sink,
    restart: () => cluster.startGateway(),
    stop: async () => {
      await cluster.stop();
      await sink.close();
      plans.remove();
    },
  };
});
