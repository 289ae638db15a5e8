<?php

declare(strict_types=1);

namespace UserCache;

/** The ext-user_cache proposal's enum, every case declared; the polyfill is always Available. */
enum CacheAvailability
{
    case Available;
    case DisabledByIni;
    case DisabledBySapi;
    case UnavailableBySharedMemoryInitializationFailed;
    case UnavailableByBackendNotInitializedBeforeWorkerStartup;
    case UnavailableByBackendInitializedAfterWorkerStartup;
    case UnavailableByCgiFastCgiBoundary;
    case UnavailableByApacheBoundary;
    case UnavailableByLsapiBoundary;
    case UnavailableByUnknownReason;
}
