<?php

declare(strict_types=1);

namespace App\Application\Settings;

final class Settings implements SettingsInterface
{
    public function __construct(private readonly array $values)
    {
    }

    public function get(string $key = ''): mixed
    {
        return $key === '' ? $this->values : $this->values[$key];
    }
}
