<?php

declare(strict_types=1);

namespace App\Application\Actions\User;

use Psr\Http\Message\ResponseInterface as Response;

final class ViewUserAction extends UserAction
{
    protected function action(): Response
    {
        $id = (int)$this->resolveArg('id');
        $user = $this->userRepository->findUserOfId($id);
        $this->logger->info("User of id `$id` was viewed.");
        return $this->respondWithData($user);
    }
}
