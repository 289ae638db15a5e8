<?php

declare(strict_types=1);

namespace Resident;

/**
 * The extension's attribute, declared so that code carrying it still loads.
 * Without the extension, statics are per request as usual.
 */
#[\Attribute(\Attribute::TARGET_CLASS | \Attribute::TARGET_METHOD | \Attribute::TARGET_PROPERTY)]
final class RequestOverStatic
{
}
