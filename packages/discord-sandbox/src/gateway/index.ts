export * from './createGatewayServer.js';
export type * from './GatewayHost.js';
