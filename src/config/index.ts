export * from './Config.js';
export * from './auditLogReason.js';
export * from './defaults.js';
export * from './loadConfig.js';
export * from './redactTokens.js';
export * from './allowListGrants.js';
