import { z } from 'zod';
import { API_PATHS } from '../../domain/endpoints.ts';
import { NoInput, PROTECTED_ERRORS } from '../common.ts';
import { operationProcedure, router } from '../trpc.ts';
import { restOperation } from '../operations.ts';

export const getOperation = restOperation({
  meta: {
    permission: 'read_docs',
    openapi: {
      method: 'GET',
      path: API_PATHS.docs,
      tags: ['docs'],
      summary: 'OpenAPI 3-document van deze API',
      protect: true,
      errorResponses: PROTECTED_ERRORS,
    },
  },
  input: NoInput,
  output: z.record(z.string(), z.unknown()).meta({ description: 'Het OpenAPI 3.1-document' }),
});

export const docsRouter = router({
  get: operationProcedure(getOperation)
    // The document is generated from these routers by openapi/; the transport hands it in.
    .query(({ ctx }) => ctx.openApiDocument()),
});
