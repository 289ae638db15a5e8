<?php

declare(strict_types=1);

namespace App\Application\Settings;

interface SettingsInterface
{
    /** The whole settings array when $key is empty, else the value under $key. */
    public function get(string $key = ''): mixed;
}
