<?php
/*
 * A booted app shaped like the Slim 4 skeleton's (docs: issue 25,
 * /work research "warm app"): 45 objects of named classes, no closures.
 * A PHP-DI-like container with its definitions and resolvers, a
 * Monolog-like logger, Slim's App, route collector, 4 routes and a group,
 * its resolvers and middleware dispatcher, middleware, an error handler and
 * its 4 renderers, settings arrays. handle('/') touches the 10 objects a
 * skeleton request for "/" uses: App, MiddlewareDispatcher, RouteRunner,
 * RouteResolver, Dispatcher, RouteCollector, the route, its invocation
 * strategy, CallableResolver and ResponseFactory.
 */
namespace Bench\Lazy;

final class Settings { public function __construct(public array $settings) {} }
final class LineFormatter
{
    public string $format = "[%datetime%] %channel%.%level_name%: %message% %context% %extra%\n";
    public string $dateFormat = 'Y-m-d\TH:i:s.uP';
    public bool $allowInlineLineBreaks = false;
    public bool $ignoreEmptyContextAndExtra = false;
    public int $maxNormalizeDepth = 9;
    public int $maxNormalizeItemCount = 1000;
}
final class StreamHandler
{
    public function __construct(public string $url, public int $level, public LineFormatter $formatter,
        public bool $bubble = true, public ?int $filePermission = null, public bool $useLocking = false) {}
}
final class UidProcessor { public function __construct(public string $uid) {} }
final class Logger
{
    public function __construct(public string $name, public array $handlers, public array $processors,
        public string $timezone = 'UTC', public bool $microsecondTimestamps = true) {}
}
final class ObjectDefinition
{
    public function __construct(public string $name, public string $className, public array $constructorParameters = [],
        public array $propertyInjections = [], public array $methodInjections = [], public ?bool $lazy = null) {}
}
final class ValueDefinition { public function __construct(public string $name, public mixed $value) {} }
final class DefinitionArray
{
    public array $wildcardDefinitions = [];
    public function __construct(public array $definitions) {}
}
final class ReflectionBasedAutowiring { public bool $enabled = true; }
final class SourceChain
{
    public ?self $mutableSource = null;
    public function __construct(public array $sources) {}
}
final class ProxyFactory { public function __construct(public ?string $proxyDirectory = null, public bool $writeToFile = false) {} }
final class ParameterResolver { public function __construct(public ?ResolverDispatcher $definitionResolver = null) {} }
final class ObjectCreator
{
    public ?ResolverDispatcher $definitionResolver = null;
    public function __construct(public ProxyFactory $proxyFactory, public ParameterResolver $parameterResolver) {}
}
final class ResolverDispatcher
{
    public ?ObjectCreator $objectCreator = null;
    public ?Container $container = null;
    public array $resolvers = [];
    public function __construct(public ProxyFactory $proxyFactory) {}
}
final class Invoker { public function __construct(public ResolverDispatcher $resolver, public ?Container $container = null) {} }
final class Container
{
    public array $resolvedEntries = [];
    public array $entriesBeingResolved = [];
    public ?Invoker $invoker = null;
    public function __construct(public SourceChain $definitionSource, public ResolverDispatcher $definitionResolver,
        public ProxyFactory $proxyFactory) {}
    public function get(string $id): mixed { return $this->resolvedEntries[$id] ?? null; }
}
final class Response
{
    public function __construct(public int $status, public array $headers, public string $body) {}
}
final class StreamFactory { public string $defaultMode = 'r+'; }
final class ResponseFactory
{
    public array $defaultHeaders = ['Content-Type' => ['text/html; charset=UTF-8']];
    public function __construct(public StreamFactory $streamFactory) {}
    public function createResponse(int $code = 200): Response { return new Response($code, $this->defaultHeaders, ''); }
}
final class CallableResolver
{
    public function __construct(public Container $container) {}
    public function resolve(string $callable): array { return [$callable, 'handle']; }
}
final class RequestResponse
{
    public function invoke(array $callable, Response $response, array $args): Response
    {
        return new Response($response->status, $response->headers, "Hello world! (" . $callable[0] . ")");
    }
}
final class RouteGroup
{
    public array $middleware = [];
    public function __construct(public string $pattern, public string $callable, public CallableResolver $callableResolver) {}
}
final class Route
{
    public array $arguments = [];
    public array $middleware = [];
    public ?string $name = null;
    public bool $groupMiddlewareAppended = false;
    public function __construct(public array $methods, public string $pattern, public string $callable,
        public ResponseFactory $responseFactory, public CallableResolver $callableResolver,
        public RequestResponse $invocationStrategy, public array $groups, public string $identifier) {}
    public function run(): Response
    {
        $callable = $this->callableResolver->resolve($this->callable);
        return $this->invocationStrategy->invoke($callable, $this->responseFactory->createResponse(), $this->arguments);
    }
}
final class RouteParser { public function __construct(public RouteCollector $routeCollector) {} }
final class RouteCollector
{
    public ?RouteParser $routeParser = null;
    public array $routes = [];
    public array $routeGroups = [];
    public string $basePath = '';
    public ?string $cacheFile = null;
    public int $routeCounter = 0;
    public function __construct(public ResponseFactory $responseFactory, public CallableResolver $callableResolver,
        public Container $container, public RequestResponse $defaultInvocationStrategy) {}
    public function getRoutes(): array { return $this->routes; }
}
final class Dispatcher
{
    public function __construct(public RouteCollector $routeCollector) {}
    public function dispatch(string $method, string $uri): ?Route
    {
        foreach ($this->routeCollector->getRoutes() as $route) {
            if ($route->pattern === $uri && in_array($method, $route->methods, true)) {
                return $route;
            }
        }
        return null;
    }
}
final class RouteResolver
{
    public function __construct(public RouteCollector $routeCollector, public Dispatcher $dispatcher) {}
    public function computeRoutingResults(string $uri, string $method): ?Route { return $this->dispatcher->dispatch($method, $uri); }
}
final class RouteRunner
{
    public ?App $app = null;
    public function __construct(public RouteResolver $routeResolver, public RouteParser $routeParser) {}
    public function handle(string $method, string $uri): Response { return $this->routeResolver->computeRoutingResults($uri, $method)->run(); }
}
final class MiddlewareDispatcher
{
    public array $middleware = [];
    public function __construct(public RouteRunner $tip, public CallableResolver $callableResolver, public Container $container) {}
    public function handle(string $method, string $uri): Response { return $this->tip->handle($method, $uri); }
}
final class SessionMiddleware { public array $options = ['name' => 'PHPSESSID', 'lifetime' => 0]; }
final class DeferredMiddleware
{
    public function __construct(public string $middleware, public CallableResolver $callableResolver, public ?SessionMiddleware $resolved) {}
}
final class HtmlErrorRenderer { public string $defaultErrorTitle = 'Slim Application Error'; public string $defaultErrorDescription = 'A website error has occurred.'; }
final class JsonErrorRenderer { public int $flags = JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES; }
final class PlainTextErrorRenderer { public string $defaultErrorTitle = 'Slim Application Error'; }
final class XmlErrorRenderer { public string $defaultErrorTitle = 'Slim Application Error'; }
final class HttpErrorHandler
{
    public string $defaultErrorRendererContentType = 'text/html';
    public function __construct(public CallableResolver $callableResolver, public ResponseFactory $responseFactory,
        public ?Logger $logger, public array $errorRenderers) {}
}
final class App
{
    public ?HttpErrorHandler $errorHandler = null;
    public string $basePath = '';
    public function __construct(public Container $container, public ResponseFactory $responseFactory,
        public CallableResolver $callableResolver, public RouteCollector $routeCollector,
        public RouteResolver $routeResolver, public MiddlewareDispatcher $middlewareDispatcher) {}
    public function handle(string $method, string $uri): Response { return $this->middlewareDispatcher->handle($method, $uri); }
}

/** Boots the app; $objects counts what it made. */
function boot(): App
{
    $settings = new Settings([
        'displayErrorDetails' => false, 'logError' => true, 'logErrorDetails' => true,
        'logger' => ['name' => 'slim-app', 'path' => 'php://stdout', 'level' => 100],
        'session' => ['name' => 'slim', 'lifetime' => 7200, 'path' => '/', 'domain' => null, 'secure' => false, 'httponly' => true],
    ]);
    $logger = new Logger('slim-app', [new StreamHandler('php://stdout', 100, new LineFormatter())], [new UidProcessor('a1b2c3d')]);
    $proxy = new ProxyFactory();
    $resolver = new ResolverDispatcher($proxy);
    $creator = new ObjectCreator($proxy, new ParameterResolver($resolver));
    $creator->definitionResolver = $resolver;
    $resolver->objectCreator = $creator;
    $definitions = [];
    foreach (['App\Domain\User\UserRepository', 'App\Infrastructure\InMemoryUserRepository', 'App\Application\Actions\User\ListUsersAction',
        'App\Application\Actions\User\ViewUserAction', 'App\Application\Middleware\SessionMiddleware', 'App\Application\Handlers\HttpErrorHandler'] as $class) {
        $definitions[$class] = new ObjectDefinition($class, $class);
    }
    $definitions['settings'] = new ValueDefinition('settings', $settings);
    $definitions['logger'] = new ValueDefinition('logger', $logger);
    $chain = new SourceChain([new DefinitionArray($definitions), new ReflectionBasedAutowiring()]);
    $container = new Container($chain, $resolver, $proxy);
    $resolver->container = $container;
    $container->invoker = new Invoker($resolver, $container);
    $container->resolvedEntries = ['settings' => $settings, 'logger' => $logger];
    $responseFactory = new ResponseFactory(new StreamFactory());
    $callableResolver = new CallableResolver($container);
    $strategy = new RequestResponse();
    $collector = new RouteCollector($responseFactory, $callableResolver, $container, $strategy);
    $collector->routeParser = new RouteParser($collector);
    $group = new RouteGroup('/users', 'App\Routes\UsersGroup', $callableResolver);
    $collector->routeGroups = [$group];
    foreach ([[['OPTIONS'], '/{routes:.*}', 'App\Actions\Preflight', []], [['GET'], '/', 'App\Actions\Hello', []],
        [['GET'], '/users', 'App\Application\Actions\User\ListUsersAction', [$group]],
        [['GET'], '/users/{id}', 'App\Application\Actions\User\ViewUserAction', [$group]]] as $i => [$methods, $pattern, $callable, $groups]) {
        $collector->routes["route$i"] = new Route($methods, $pattern, $callable, $responseFactory, $callableResolver, $strategy, $groups, "route$i");
        $collector->routeCounter++;
    }
    $routeResolver = new RouteResolver($collector, new Dispatcher($collector));
    $runner = new RouteRunner($routeResolver, $collector->routeParser);
    $dispatcher = new MiddlewareDispatcher($runner, $callableResolver, $container);
    $dispatcher->middleware = [new DeferredMiddleware('App\Application\Middleware\SessionMiddleware', $callableResolver, new SessionMiddleware())];
    $app = new App($container, $responseFactory, $callableResolver, $collector, $routeResolver, $dispatcher);
    $runner->app = $app;
    $app->errorHandler = new HttpErrorHandler($callableResolver, $responseFactory, $logger,
        ['text/html' => new HtmlErrorRenderer(), 'application/json' => new JsonErrorRenderer(),
         'text/plain' => new PlainTextErrorRenderer(), 'application/xml' => new XmlErrorRenderer()]);
    return $app;
}
