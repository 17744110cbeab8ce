import { describe, expect, it } from 'vitest';
import { readBackendReferences } from '../scanner/probes/backend-references.ts';
import { chunkReferences } from '../scanner/probes/chunk-references.ts';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';
import { resemblesBaseline } from '../scanner/checks/exposures.ts';
import { EXPOSURE_RULES } from '../scanner/probes/exposure-rules.ts';
import { looksLikeHtml } from '../scanner/probes/html.ts';
import type { FetchedResponse } from '../scanner/net/http-evidence.ts';

// A file of its own: the longest suite of the client-code tests runs beside the others.
describe('script text from a hostile site', () => {
  it('runs in linear time over hostile script text (3 MiB runs of each pattern prefix)', async () => {
    const prefixes = [
      ...[
        'x',
        'a.from("',
        'eyJ',
        'eyJ-',
        'ew-',
        'https://',
        '"http://a',
        'sb_publishable_',
        'databaseURL:"',
        'http://a:',
        'ghp_',
        'postgres://u:',
        'postgres://u:p@',
      ],
      ...[
        'mongodb+srv://',
        'xoxb-1-',
        'xoxb-12345678-',
        'xapp-1-A1-',
        'hooks.slack.com/services/',
        'secretAccessKey:"',
        'import("./',
        'sk-',
        'sk-proj-',
        'sk-ant-api03-',
      ],
      ...[
        '-----BEGIN PRIVATE KEY-----',
        '-----END PRIVATE KEY-----',
        'AKIA',
        'M',
        'MTIz.',
        '123456:A',
        'key-',
        'sk.eyJ',
        'ya29.',
        'GOCSPX-',
        'glpat-',
        'SG.',
        'sntrys_eyJ',
      ],
      ...[
        '.u=e=>"a"+{',
        'x.u=function(e){return"',
        '12===e?"a.js":',
        '__vite__mapDeps m.f=["',
        'static/chunks/',
        'n.e(',
        'import(`./',
      ],
      ...['0123456789abcdef0123456789abcdef-', '-us1', 'admin"', 'write ', 'key-0123456789abcdef'],
      ...[
        'cohere ',
        'algolia admin ',
        'AC0123456789abcdef0123456789abcdef ',
        'postmark ',
        'generativelanguage.googleapis.com AIza',
        'service_account -----BEGIN PRIVATE KEY-----\\n',
      ],
    ];
    // A quadratic pattern would take hours on these, not the test's 90 s (about 9 s alone, three times that
    // beside the rest of npm test on two cores); none of them is a credential or a table.
    for (const prefix of prefixes) {
      const code = `const a="${prefix.repeat(Math.floor((3 * 1024 * 1024) / prefix.length))}";`;
      expect(readBackendReferences(code).tables, prefix).toEqual([]);
      expect(await findSecrets(code), prefix).toEqual([]);
      expect(chunkReferences(code, 'https://example.nl/_next/static/chunks/a.js').urls.length, prefix).toBeLessThan(
        400,
      );
    }
  }, 90_000);
});

describe('answers of a hostile site compared with its not-found pages', () => {
  it('compares in one pass per answer, whatever runs of token characters the answers hold', () => {
    // 8 KiB of letters without a digit cost the old pattern about 30 million steps per comparison;
    // a scan makes hundreds. 3,000 comparisons here: hours then, a fraction of a second now.
    const answer = (path: string, body: string): FetchedResponse => ({
      url: `https://hostile.example${path}`,
      status: 200,
      headers: { 'content-type': ['text/html'] },
      body: Buffer.from(body),
    });
    for (const run of ['a', 'aB-', 'a1', '+/=', 'Zz_']) {
      const body = run.repeat(Math.ceil(8192 / run.length));
      const baselines = [1, 2, 3].map((i) => answer(`/nope-${i}`, body));
      for (let i = 0; i < 1000; i++) {
        const probe = answer(`/.env-${i}`, body);
        expect(
          baselines.every((baseline) => resemblesBaseline(probe, baseline)),
          run,
        ).toBe(true);
      }
    }
    // Still told apart: a real file is no not-found page.
    expect(
      resemblesBaseline(answer('/.env', 'APP_KEY=base64:x\nDB_PASSWORD=y\n'), answer('/nope', '<h1>Not found</h1>')),
    ).toBe(false);
  }, 30_000);
});

describe('patterns over what a hostile site answers', () => {
  it('judges runs of the characters each pattern repeats in linear time', () => {
    // Each body repeats what a backtracking pattern would try again at every position: 64 KiB of it.
    // Verdicts per run: [an HTML document, a directory listing, a git config].
    const runs: Array<[string, boolean, boolean, boolean]> = [
      ['\n', false, false, false],
      [' \n', false, false, false],
      ['<pre>', false, false, false],
      [' - /', false, false, false],
      ['<!--', false, false, false],
      ['<title> - /', false, false, false],
      ['<html>', true, false, false],
      ['a', false, false, false],
      ['[core]\n\n', false, false, true],
    ];
    for (const [run, html, listing, git] of runs) {
      const body = run.repeat(Math.ceil(65_536 / run.length));
      const bytes = Buffer.from(body);
      expect(
        [
          looksLikeHtml(body),
          EXPOSURE_RULES.directory_listing.confirm(bytes, body),
          EXPOSURE_RULES.exposed_git_config.confirm(bytes, body),
        ],
        JSON.stringify(run),
      ).toEqual([html, listing, git]);
    }
    // Still right on real answers.
    const iis =
      '<html><head><title>www.acme.nl - /backup/</title></head><body><H1>www.acme.nl - /backup/</H1><hr>\n\n<pre><A HREF="/">[To Parent Directory]</A><br><br> 1/2/2024  3:04 PM        &lt;dir&gt; <A HREF="/backup/db/">db</A><br></pre>';
    expect(EXPOSURE_RULES.directory_listing.confirm(Buffer.from(iis), iis)).toBe(true);
    const git = '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@example.nl:a/b.git\n';
    expect(EXPOSURE_RULES.exposed_git_config.confirm(Buffer.from(git), git)).toBe(true);
    expect(looksLikeHtml('<!-- a --> <!-- b -->\n<!doctype html><p>x')).toBe(true);
    expect(looksLikeHtml('{"html": false}')).toBe(false);
  }, 30_000);
});
