/** Discord writes timestamps with microseconds and an explicit offset: `2016-04-05T23:52:30.292000+00:00`. */
export function toDiscordTimestamp(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, -1)}000+00:00`;
}
