<?php

declare(strict_types=1);

namespace App\ClosureFree;

use App\Application\Actions\User\ListUsersAction;
use App\Application\Actions\User\ViewUserAction;
use Slim\Interfaces\RouteCollectorProxyInterface as Group;

/** The /users group closure of app/routes.php (app-cf/). */
final class UserRoutes
{
    public function __invoke(Group $group): void
    {
        $group->get('', ListUsersAction::class);
        $group->get('/{id}', ViewUserAction::class);
    }
}
