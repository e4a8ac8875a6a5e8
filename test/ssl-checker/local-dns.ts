import { Packet, UDPServer } from 'dns2';

/**
 * A real DNS server on 127.0.0.1 (UDP, port 0) for names the certificates carry: the outbound client resolves
 * with its own resolver (never /etc/hosts) and refuses `localhost` outright, so a test name needs a server.
 * Listed names answer A 127.0.0.1 and no AAAA; every other name is NXDOMAIN.
 */
export interface LocalDns {
  /** `127.0.0.1:<port>`, as the outbound policy's dnsServers takes it. */
  readonly spec: string;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startLocalDns(names: readonly string[]): Promise<LocalDns> {
  const known = new Set(names.map((n) => n.toLowerCase()));
  const server = new UDPServer({ type: 'udp4' });
  server.on('request', ((
    request: { questions: { name: string; type: number }[] },
    send: (r: unknown) => void,
  ) => {
    const response = Packet.createResponseFromRequest(request as never) as unknown as {
      header: { rcode: number; ra: number };
      answers: unknown[];
    };
    response.header.ra = 1;
    const q = request.questions[0];
    const name = q?.name.toLowerCase() ?? '';
    if (!known.has(name)) response.header.rcode = NXDOMAIN;
    else if (q?.type === Packet.TYPE.A) {
      response.answers.push({
        name: q.name,
        type: Packet.TYPE.A,
        class: Packet.CLASS.IN,
        ttl: 60,
        address: '127.0.0.1',
      });
    }
    send(response);
  }) as never);
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    spec: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
