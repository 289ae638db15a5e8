<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * A shared tier that bounds how long its commands may wait: Tiered gives it
 * the time by which the whole of one of its calls (which may be several
 * commands: a generation, a SET, a PUBLISH) must be over.
 */
interface CallDeadline
{
    /**
     * @param float|null $deadline Unix time (microtime(true)) by which the commands from now on must be
     *                             over, each waiting at most what is left; null: no deadline (the client's own timeouts)
     */
    public function callBy(?float $deadline): void;
}
