import client from 'prom-client';

// Prometheus metrics of this process, on prom-client's default registry: request counts and
// latency by route and status, scans by grade, webhook deliveries by outcome, and prom-client's
// process metrics (event-loop delay, heap, CPU, handles).

const registry = client.register;
let defaultsCollected = false;

export const httpRequestDuration =
  (registry.getSingleMetric('http_request_duration_seconds') as
    | client.Histogram<'method' | 'route' | 'status'>
    | undefined) ??
  new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  });

export const scansTotal =
  (registry.getSingleMetric('scanner_scans_total') as client.Counter<'grade'> | undefined) ??
  new client.Counter({
    name: 'scanner_scans_total',
    help: 'Completed scans by grade ("error" for scans that ended in an error)',
    labelNames: ['grade'] as const,
  });

export const webhookDeliveriesTotal =
  (registry.getSingleMetric('webhook_deliveries_total') as client.Counter<'outcome'> | undefined) ??
  new client.Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, failed, gone (410)',
    labelNames: ['outcome'] as const,
  });

/** Starts prom-client's process metrics once per process (event-loop delay among them). */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}

export const metricsContentType = registry.contentType;
export const renderMetrics = () => registry.metrics();
