import dns2 from 'dns2';

/**
 * A DNS server on loopback for the domain checks (issue 31): it answers TXT, CNAME, A and AAAA questions from the
 * records a test sets, NOERROR with no answer for anything else, and SERVFAIL for the names in `failing` (a resolver
 * outage). Point the checker at `server` (DNS_RESOLVER's form, `127.0.0.1:<port>`).
 */
export type FakeZone = {
  txt: Map<string, string[]>;
  cname: Map<string, string>;
  a: Map<string, string[]>;
  aaaa: Map<string, string[]>;
  failing: Set<string>;
};

export async function startFakeDns(port = 0): Promise<{ server: string; zone: FakeZone; close: () => Promise<void> }> {
  const zone: FakeZone = { txt: new Map(), cname: new Map(), a: new Map(), aaaa: new Map(), failing: new Set() };
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      const answer = (record: Partial<dns2.Packet.Resource>) =>
        response.answers.push(Packet.createResourceFromQuestion(question!, { ttl: 1, ...record }));
      if (zone.failing.has(name)) {
        response.header.rcode = 2; // SERVFAIL
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const data of zone.txt.get(name) ?? []) answer({ data });
      } else if (question?.type === Packet.TYPE.CNAME) {
        const domain = zone.cname.get(name);
        if (domain) answer({ domain });
      } else if (question?.type === Packet.TYPE.A) {
        for (const address of zone.a.get(name) ?? []) answer({ address });
      } else if (question?.type === Packet.TYPE.AAAA) {
        for (const address of zone.aaaa.get(name) ?? []) answer({ address });
      }
      send(response);
    },
  });
  const listening = await server.listen({ udp: { port, address: '127.0.0.1' } });
  const udp = (listening as { udp?: { port: number } }).udp;
  if (!udp) throw new Error('the fake DNS server did not listen on UDP');
  return { server: `127.0.0.1:${udp.port}`, zone, close: () => server.close().then(() => undefined) };
}
