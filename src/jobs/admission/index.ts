export { Admission, type PreconditionObserver } from './Admission.js';
export { type EngineAdmissionOptions, engineAdmission } from './engineAdmission.js';
export { oneJobAtATime } from './oneJobAtATime.js';
export type { AdmissionRequest, Precondition, PreconditionName } from './Precondition.js';
export { requesterPermission } from './requesterPermission.js';
export { requesterRank } from './requesterRank.js';
export { type PermittedWorker, workersPermission } from './workersPermission.js';
export { type FleetPresence, workersPresent } from './workersPresent.js';
