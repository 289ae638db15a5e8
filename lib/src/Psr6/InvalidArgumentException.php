<?php

declare(strict_types=1);

namespace Resident\Psr6;

final class InvalidArgumentException extends \InvalidArgumentException implements \Psr\Cache\InvalidArgumentException
{
}
