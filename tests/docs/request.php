<?php
/**
 * Runs $fn as one request: in a child process, which ends (publishing its
 * RequestOverStatic state) before request() returns. The classes are
 * declared inside $fn, never in the parent, so each request links them
 * afresh, as each php-fpm request does.
 */
function request(callable $fn): void
{
    if (($pid = pcntl_fork()) === 0) {
        $fn();
        exit(0);
    }
    pcntl_waitpid($pid, $status);
}
