<?php

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap\HandleExceptions;
use Illuminate\Foundation\Bootstrap\RegisterFacades;
use Illuminate\Foundation\Providers\FoundationServiceProvider;
use Illuminate\Http\Request;

/*
 * public/index.php split for Resident\Cache::keep(). What a request would
 * build before it reads the request (bootstrap/app.php, the HTTP kernel's
 * bootstrappers: .env, config, providers registered and booted) is built
 * once per deploy and kept: the application as written, its container's
 * closures and all. Each request gets a copy of it and puts back what
 * the boot left outside of the application's objects, then handles the
 * request as index.php does.
 */
return [
    'build' => static function (): array {
        /** @var Application $app */
        $app = require __DIR__ . '/app.php';
        $kernel = $app->make(Kernel::class);
        $kernel->bootstrap();
        // One request through it first: the services a request resolves
        // lazily (session, cookie jar, encrypter, view, the compiled
        // routes, the middleware instances) are kept resolved. Its
        // response is dropped; what it left behind is reset below.
        $request = Request::create('http://localhost/', 'GET');
        $kernel->terminate($request, $kernel->handle($request));

        // The boot also wrote class statics, which a kept value does not
        // hold: Container::$instance, the Request macros of the foundation
        // provider, Eloquent's connection resolver and event dispatcher,
        // the paginator's resolvers, ... Kept here with the application
        // (the objects they point to are the application's own) and put
        // back by every request. Those the reset rebuilds itself are left
        // out: HandleExceptions' (its handlers are registered again), the
        // facades' (cleared and pointed at the copy again, the alias loader
        // registered again), Composer's (its loader is the request's own),
        // VarDumper's handler (its dumper holds the php://output stream it
        // opened, which cannot be kept: registered again by the reset).
        $statics = [];
        foreach (get_declared_classes() as $class) {
            $reflection = new ReflectionClass($class);
            if ($reflection->isInternal() || $reflection->isAnonymous()
                || in_array($class, [HandleExceptions::class, Illuminate\Support\Facades\Facade::class,
                    Illuminate\Foundation\AliasLoader::class, Composer\Autoload\ClassLoader::class,
                    Symfony\Component\VarDumper\VarDumper::class], true)
                || str_starts_with($class, 'ComposerAutoloaderInit')) {
                continue;
            }
            foreach ($reflection->getProperties(ReflectionProperty::IS_STATIC) as $property) {
                if ($property->class !== $class || !$property->isInitialized()) {
                    continue;
                }
                $value = $property->getValue();
                // A stream a class opened for itself (VarDumper's HtmlDumper::$defaultOutput,
                // php://output) cannot be kept: left out, the class opens it again when used.
                if (is_resource($value)) {
                    continue;
                }
                if (!$property->hasDefaultValue() || $value !== $property->getDefaultValue()) {
                    $statics[$class][$property->name] = $value;
                }
            }
        }

        return ['app' => $app, 'statics' => $statics];
    },

    // What a copy must not inherit from the request that built it, and what
    // the boot did that lives outside of the kept objects (statics, handlers,
    // process settings). Laravel Octane's listeners for the parts one
    // request touches: scoped instances, the session store, the queued
    // cookies, the facades' resolved instances, the auth guards, the locale
    // (the rest of Octane's list gives its clone of the app to the services
    // that hold the app: each copy here has its own already).
    'reset' => static function (array $kept): void {
        $app = $kept['app'];
        foreach ($kept['statics'] as $class => $values) {
            Closure::bind(static function () use ($values): void {
                foreach ($values as $name => $value) {
                    static::${$name} = $value;
                }
            }, null, $class)();
        }
        // What LoadConfiguration and HandleExceptions set for the process.
        date_default_timezone_set($app['config']->get('app.timezone', 'UTC'));
        mb_internal_encoding('UTF-8');
        (new HandleExceptions())->bootstrap($app);
        (new RegisterFacades())->bootstrap($app);
        $app->getProvider(FoundationServiceProvider::class)?->registerDumper();

        // What the build's request left: Laravel's per-request (scoped)
        // bindings, the session store it started (its id, CSRF token and
        // attributes), the session cookie it queued.
        $app->forgetScopedInstances();
        if ($app->resolved('session')) {
            $app['session']->forgetDrivers();
        }
        if ($app->resolved('cookie')) {
            $app['cookie']->flushQueuedCookies();
        }
        // Not resolved by this app's GET /; an app whose first request
        // resolves them would keep its guards (holding that request's
        // session and user) and its locale.
        if ($app->resolved('auth')) {
            $app->forgetInstance('auth.driver');
            $app['auth']->forgetGuards();
        }
        if ($app->resolved('translator')) {
            $app['translator']->setLocale($app['config']->get('app.locale'));
        }
    },

    'serve' => static function (array $kept): void {
        $kept['app']->handleRequest(Request::capture());
    },
];
