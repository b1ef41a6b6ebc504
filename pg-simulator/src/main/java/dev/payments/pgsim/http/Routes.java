package dev.payments.pgsim.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * The simulator's routing table on Reactor Netty's {@link HttpServerRoutes}: handlers by method and path template
 * ({@code /v1/payments/{paymentKey}}), and answers of our own where the router would send an empty 404 - a JSON 405
 * for a known path asked with another method, a JSON 404 for anything else.
 *
 * <p>Paths are tried in the order they were first given, each with its 405 right behind it: a specific path
 * ({@code /v1/payments/confirm}) given before a template that also matches it ({@code /v1/payments/{paymentKey}})
 * keeps a GET of it a 405 instead of a query for the payment key "confirm". The 405 covers the methods the router
 * can route (GET, HEAD, POST, PUT, DELETE, OPTIONS); another method (PATCH) on a known path is a 404.
 */
public final class Routes {

    /** A route's handler: the request carries the path's parameters ({@link #param}). */
    public interface Handler extends BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {
    }

    private enum Method {
        GET, HEAD, POST, PUT, DELETE, OPTIONS;

        void register(HttpServerRoutes routes, String path, Handler handler) {
            switch (this) {
                case GET -> routes.get(path, handler);
                case HEAD -> routes.head(path, handler);
                case POST -> routes.post(path, handler);
                case PUT -> routes.put(path, handler);
                case DELETE -> routes.delete(path, handler);
                case OPTIONS -> routes.options(path, handler);
            }
        }
    }

    private final Map<String, Map<Method, Handler>> paths = new LinkedHashMap<>();

    public Routes get(String path, Handler handler) {
        return add(Method.GET, path, handler);
    }

    public Routes post(String path, Handler handler) {
        return add(Method.POST, path, handler);
    }

    public Routes put(String path, Handler handler) {
        return add(Method.PUT, path, handler);
    }

    public Routes delete(String path, Handler handler) {
        return add(Method.DELETE, path, handler);
    }

    /** Every method the router can route goes to {@code handler} (a health check). */
    public Routes any(String path, Handler handler) {
        for (Method method : Method.values()) {
            add(method, path, handler);
        }
        return this;
    }

    private Routes add(Method method, String path, Handler handler) {
        Handler previous = paths.computeIfAbsent(path, p -> new EnumMap<>(Method.class)).putIfAbsent(method, handler);
        if (previous != null) {
            throw new IllegalArgumentException(method + " " + path + " is routed twice");
        }
        return this;
    }

    /**
     * @param methodNotAllowed the answer for a known path asked with a method it does not serve
     * @param notFound         the answer for any other request
     */
    public HttpServerRoutes build(Reply methodNotAllowed, Function<HttpServerRequest, Reply> notFound) {
        HttpServerRoutes routes = HttpServerRoutes.newRoutes();
        Handler refuse = (request, response) -> Exchanges.send(response, methodNotAllowed);
        paths.forEach((path, handlers) -> {
            for (Method method : Method.values()) {
                method.register(routes, path, handlers.getOrDefault(method, refuse));
            }
        });
        return routes.route(request -> true, (request, response) -> Exchanges.send(response, notFound.apply(request)));
    }

    /** A path parameter of the route, URL-decoded ({@code pk%201} is the payment key "pk 1"). */
    public static String param(HttpServerRequest request, String name) {
        String raw = request.param(name);
        return raw == null ? null : QueryStringDecoder.decodeComponent(raw);
    }

    /** The request's query parameters, decoded. */
    public static Map<String, List<String>> query(HttpServerRequest request) {
        return new QueryStringDecoder(request.uri()).parameters();
    }

    /** The request's path without its query, decoded. */
    public static String path(HttpServerRequest request) {
        return new QueryStringDecoder(request.uri()).path();
    }
}
