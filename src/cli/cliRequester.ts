import { userInfo } from 'node:os';
import { OPERATOR_ID, type Requester } from '../jobs/index.js';

/**
 * Who starts a job from the command line, as the audit log reason and the journal name them:
 * `cli:<OS user>` (`cli` alone where the user has no name, as in a container whose uid has no
 * passwd entry). No Discord user is behind it, so the id is {@link OPERATOR_ID}.
 */
export function cliRequester(): Requester {
	let user: string | undefined;
	try {
		user = userInfo().username;
	} catch {
		// userInfo() throws for a uid with no passwd entry.
	}
	return { id: OPERATOR_ID, tag: user ? `cli:${user}` : 'cli' };
}
