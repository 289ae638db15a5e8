<?php

declare(strict_types=1);

namespace App\Infrastructure\Persistence\User;

use App\Domain\User\User;
use App\Domain\User\UserNotFoundException;
use App\Domain\User\UserRepository;

final class InMemoryUserRepository implements UserRepository
{
    /** @var array<int, User> */
    private array $users;

    public function __construct(?array $users = null)
    {
        $this->users = $users ?? [
            1 => new User(1, 'ada.l', 'ada', 'lovelace'),
            2 => new User(2, 'alan.t', 'alan', 'turing'),
            3 => new User(3, 'grace.h', 'grace', 'hopper'),
            4 => new User(4, 'edsger.d', 'edsger', 'dijkstra'),
            5 => new User(5, 'barbara.l', 'barbara', 'liskov'),
        ];
    }

    public function findAll(): array
    {
        return array_values($this->users);
    }

    public function findUserOfId(int $id): User
    {
        return $this->users[$id] ?? throw new UserNotFoundException();
    }
}
