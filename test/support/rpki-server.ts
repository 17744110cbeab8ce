import http from 'node:http';

// A loopback stand-in for RIPEstat's prefix-overview and Routinator's validity API: 127.0.0.1 is
// announced as 127.0.0.0/8 by AS64500 with the validity the test sets; everything else unannounced.

export interface RpkiStandIn {
  /** The validator's base URL (SCANNER_RPKI_VALIDATOR_URL). */
  validatorUrl: string;
  /** The prefix-overview URL (SCANNER_RPKI_ORIGIN_URL). */
  originUrl: string;
  /** Paths asked so far. */
  asked: string[];
  setVerdict: (verdict: 'valid' | 'invalid' | 'not-found') => void;
  close: () => Promise<void>;
}

export async function startRpkiStandIn(): Promise<RpkiStandIn> {
  let verdict = 'valid';
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://rpki');
    asked.push(url.pathname);
    const body =
      url.pathname === '/prefix-overview'
        ? url.searchParams.get('resource') === '127.0.0.1'
          ? { data: { announced: true, resource: '127.0.0.0/8', asns: [{ asn: 64500 }] } }
          : { data: { announced: false, resource: url.searchParams.get('resource'), asns: [] } }
        : {
            validated_route: {
              route: { origin_asn: 'AS64500', prefix: '127.0.0.0/8' },
              validity: { state: verdict },
            },
          };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    validatorUrl: base,
    originUrl: `${base}/prefix-overview`,
    asked,
    setVerdict: (next) => {
      verdict = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
