<?php

declare(strict_types=1);

namespace Resident\Psr16;

final class InvalidArgumentException extends \InvalidArgumentException implements \Psr\SimpleCache\InvalidArgumentException
{
}
