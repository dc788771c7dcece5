package io.github.jvmfit.sidecar;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * One client connection. Its own two paths are answered here:
 *
 * <pre>
 * GET /sidecar/health   {"status":"UP"} (jvmfit's ready URL)
 * GET /sidecar/stats    requests, upstream connections opened and reused, 502s, 504s
 * </pre>
 *
 * Every other path goes to the upstream its longest matching prefix names
 * (404 when none does). While a request is in flight the connection reads
 * no further (auto-read off), so requests are answered in order.
 */
final class ProxyHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final Config config;
    private final Stats stats;
    private final Map<EventLoop, UpstreamPool> pools;
    private Exchange inFlight;

    ProxyHandler(Config config, Stats stats, Map<EventLoop, UpstreamPool> pools) {
        this.config = config;
        this.stats = stats;
        this.pools = pools;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (!req.decoderResult().isSuccess()) {
            local(ctx, req, HttpResponseStatus.BAD_REQUEST, "{\"error\":\"malformed request\"}");
            return;
        }
        String path = new QueryStringDecoder(req.uri()).path();
        switch (path) {
            case "/sidecar/health" -> {
                local(ctx, req, HttpResponseStatus.OK, "{\"status\":\"UP\"}");
                return;
            }
            case "/sidecar/stats" -> {
                local(ctx, req, HttpResponseStatus.OK, stats.json());
                return;
            }
            default -> {
            }
        }
        Routes.Route route = config.routes().match(path);
        if (route == null) {
            local(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"no route for " + path.replace("\"", "'") + "\"}");
            return;
        }
        stats.requests.incrementAndGet();
        ctx.channel().config().setAutoRead(false);
        EventLoop loop = ctx.channel().eventLoop();
        UpstreamPool pool = pools.computeIfAbsent(loop, l -> new UpstreamPool(l, config, stats));
        inFlight = new Exchange(ctx, this, route, pool, config, stats, req);
        inFlight.start();
    }

    void finished(Exchange e) {
        if (inFlight == e) {
            inFlight = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange e = inFlight;
        inFlight = null;
        if (e != null) {
            e.abandon();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static void local(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (HttpUtil.isKeepAlive(req)) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(r);
        } else {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
