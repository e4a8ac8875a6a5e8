import { isIP } from 'node:net';

export interface NameServer {
  readonly address: string;
  readonly port: number;
  /** How results name it: the address, with `:port` (`[v6]:port`) only when the port is not 53. */
  readonly label: string;
}

const DNS_PORT = 53;

/**
 * `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port` (DNS_SERVERS and `dns.getServers()` both write these forms).
 * A bare IPv6 address has colons of its own, so a port is only read from the bracketed form.
 */
export function parseNameServer(spec: string): NameServer {
  const text = spec.trim();
  let address = text;
  let port = DNS_PORT;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const v4WithPort = /^([0-9.]+):(\d{1,5})$/.exec(text);
  if (bracketed) {
    address = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (v4WithPort) {
    address = v4WithPort[1]!;
    port = Number(v4WithPort[2]);
  }
  const family = isIP(address);
  if (family === 0 || (bracketed && family !== 6) || port < 1 || port > 65535) {
    throw new Error(`DNS server "${spec}" is not ip, ip:port or [ipv6]:port`);
  }
  const host = family === 6 ? `[${address}]` : address;
  return { address, port, label: port === DNS_PORT ? address : `${host}:${port}` };
}

/** The servers to ask, in order; at least one. */
export function parseNameServers(specs: readonly string[]): NameServer[] {
  const servers = specs.filter((s) => s.trim() !== '').map(parseNameServer);
  if (servers.length === 0) throw new Error('no DNS server configured');
  return servers;
}
