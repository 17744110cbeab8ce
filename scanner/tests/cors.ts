import { checkCors } from '../checks/cors.ts';
import { defineTest, pageOriginOf } from './test.ts';

/** The start page's answer to a foreign Origin: a server's CORS policy is judged once per origin. */
export const corsTest = defineTest({
  name: 'cors',
  category: 'SECURITY_HEADER',
  subject: 'page',
  reach: 'passive',
  readsPage: true,
  produces: [
    'cors_reflected_origin_with_credentials',
    'cors_reflected_origin',
    'cors_wildcard_with_credentials',
    'cors_null_origin_with_credentials',
  ],
  checks: { cors: checkCors },
  subjectOf: pageOriginOf,
});
