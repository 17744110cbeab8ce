import { caaTest } from './caa.ts';
import { clientBackendsTest, clientCodeTest } from './client-code.ts';
import { corsTest } from './cors.ts';
import { exposuresTest } from './exposures.ts';
import { hstsTest } from './hsts.ts';
import { httpRedirectionTest } from './http-redirection.ts';
import { httpsTest } from './https.ts';
import { internetNlTest } from './internetnl.ts';
import { mailTest } from './mail.ts';
import { javascriptComponentsTest } from './javascript-components.ts';
import { nextjsMiddlewareTest } from './nextjs-middleware.ts';
import { securityHeadersTest } from './security-headers.ts';
import { securityTxtTest } from './security-txt.ts';
import { tlsTest } from './tls.ts';
import { wordpressComponentsTest } from './wordpress-components.ts';

/**
 * Every test a scan runs, one row each, in the order their findings are listed among equals. The
 * scanner runs exactly these; adding a test is one file in this folder and one row here.
 */
export const TESTS = [
  httpsTest,
  tlsTest,
  caaTest,
  internetNlTest,
  mailTest,
  httpRedirectionTest,
  hstsTest,
  securityHeadersTest,
  corsTest,
  securityTxtTest,
  exposuresTest,
  clientCodeTest,
  clientBackendsTest,
  nextjsMiddlewareTest,
  javascriptComponentsTest,
  wordpressComponentsTest,
] as const;

export type RegisteredTest = (typeof TESTS)[number];
export type TestName = RegisteredTest['name'];
/** The tests' names, as a scan's coverage names them. */
export const TEST_NAMES = TESTS.map((test) => test.name) as [TestName, ...TestName[]];
