import { z } from 'zod';
import { NoInput, PROTECTED_ERRORS } from '../common.ts';
import { protectedProcedure, router } from '../trpc.ts';

export const docsRouter = router({
  get: protectedProcedure
    .meta({
      permission: 'read_docs',
      openapi: { method: 'GET', path: '/api/agent/docs', tags: ['docs'], summary: 'OpenAPI 3-document van deze API', protect: true, errorResponses: PROTECTED_ERRORS },
    })
    .input(NoInput)
    .output(z.record(z.string(), z.unknown()).meta({ description: 'Het OpenAPI 3.1-document' }))
    .query(async () => {
      // Imported on use: the document is generated from the router that contains this procedure.
      const { openApiDocument } = await import('../../openapi/document.ts');
      return openApiDocument() as unknown as Record<string, unknown>;
    }),
});
