package io.claimguard.intake;

import java.time.Duration;

/**
 * How the file drop takes its files.
 *
 * @param pollDelay the time between polls of the inbox while no file comes (and before a file not settled yet is
 *     looked at again)
 * @param settleTime how long an entry must have been there before one left alone is said so
 * @param maxFilesPerPoll the most files one poll hands to the route
 * @param retries what a failed file waits, and how often it may fail
 */
record InboxSettings(Duration pollDelay, Duration settleTime, int maxFilesPerPoll, FileRetryPolicy retries) {
}
