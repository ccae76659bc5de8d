export { HealthServer, type HealthRoutes } from './HealthServer.js';
export { MassnickMetrics, type MetricsSource } from './MassnickMetrics.js';
export { type HealthSource, ServiceHealth } from './ServiceHealth.js';
