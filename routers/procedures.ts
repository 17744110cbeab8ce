import type { AnyProcedure } from '@trpc/server';
import type { OpenApiMeta, OpenApiMethod } from 'trpc-to-openapi';
import { appRouter } from './index.ts';
import type { Meta } from './trpc.ts';

export interface OpenApiProcedure {
  /** Dotted procedure name, e.g. "scans.list". */
  name: string;
  method: OpenApiMethod;
  /** OpenAPI path with {param} segments. */
  path: string;
  meta: Meta & { openapi: NonNullable<OpenApiMeta['openapi']> };
  procedure: AnyProcedure;
}

/** Every procedure with REST metadata: the single list the facade and the document both use. */
export function openApiProcedures(): OpenApiProcedure[] {
  return Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).flatMap(([name, procedure]) => {
    const meta = procedure._def.meta as (Meta & OpenApiMeta) | undefined;
    if (!meta?.openapi) return [];
    return [{ name, method: meta.openapi.method, path: meta.openapi.path, meta: meta as OpenApiProcedure['meta'], procedure }];
  });
}
