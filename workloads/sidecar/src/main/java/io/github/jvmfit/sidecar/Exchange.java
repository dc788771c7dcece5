package io.github.jvmfit.sidecar;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * One proxied request: borrow a connection, send, and answer the client
 * once, with the upstream's response, a 502 (could not connect, the
 * connection broke, a malformed answer) or a 504 (no answer within the
 * timeout). Nothing is retried: a request may not be idempotent, and a
 * retry would hide the upstream's failure from the latency the client sees.
 * Everything runs on the client connection's event loop.
 */
final class Exchange {
    enum Failure { BAD_GATEWAY, GATEWAY_TIMEOUT }

    private final ChannelHandlerContext client;
    private final ProxyHandler owner;
    private final Routes.Route route;
    private final UpstreamPool pool;
    private final Config config;
    private final Stats stats;
    private final boolean keepAlive;
    private FullHttpRequest request;
    private Channel upstream;
    private ScheduledFuture<?> timer;
    private boolean done;

    Exchange(ChannelHandlerContext client, ProxyHandler owner, Routes.Route route, UpstreamPool pool,
             Config config, Stats stats, FullHttpRequest req) {
        this.client = client;
        this.owner = owner;
        this.route = route;
        this.pool = pool;
        this.config = config;
        this.stats = stats;
        this.keepAlive = HttpUtil.isKeepAlive(req);
        this.request = outbound(req, route);
    }

    /** The request as sent upstream: HTTP/1.1, kept alive, hop-by-hop headers dropped. */
    private static FullHttpRequest outbound(FullHttpRequest in, Routes.Route route) {
        FullHttpRequest out = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, in.method(), in.uri(), in.content().retain());
        out.headers().set(in.headers());
        dropHopByHop(out.headers());
        out.headers().set(HttpHeaderNames.HOST, route.host());
        out.headers().set(HttpHeaderNames.CONTENT_LENGTH, out.content().readableBytes());
        return out;
    }

    static void dropHopByHop(HttpHeaders h) {
        for (String c : h.getAll(HttpHeaderNames.CONNECTION)) {
            for (String name : c.split(",")) {
                h.remove(name.trim());
            }
        }
        h.remove(HttpHeaderNames.CONNECTION);
        h.remove(HttpHeaderNames.KEEP_ALIVE);
        h.remove(HttpHeaderNames.PROXY_AUTHENTICATE);
        h.remove(HttpHeaderNames.PROXY_AUTHORIZATION);
        h.remove(HttpHeaderNames.TE);
        h.remove(HttpHeaderNames.TRAILER);
        h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        h.remove(HttpHeaderNames.UPGRADE);
    }

    void start() {
        timer = client.executor().schedule(() -> fail(Failure.GATEWAY_TIMEOUT,
                "no answer from the upstream within " + config.timeoutMs() + " ms"), config.timeoutMs(), TimeUnit.MILLISECONDS);
        InetSocketAddress addr = route.upstream();
        pool.acquire(addr, (ch, err) -> {
            if (err != null) {
                fail(Failure.BAD_GATEWAY, "cannot connect to " + route.host() + ": " + err.getMessage());
                return;
            }
            if (done) {
                // Timed out or the client left while connecting: keep the fresh connection.
                pool.release(addr, ch);
                return;
            }
            upstream = ch;
            ch.pipeline().get(UpstreamHandler.class).begin(this);
            FullHttpRequest r = request;
            request = null;
            ch.writeAndFlush(r).addListener(w -> {
                if (!w.isSuccess()) {
                    ch.close();
                    fail(Failure.BAD_GATEWAY, "cannot send to " + route.host() + ": " + w.cause().getMessage());
                }
            });
        });
    }

    /** The upstream answered: pass it on, and give the connection back when it may be reused. */
    void complete(FullHttpResponse in) {
        if (done) {
            return;
        }
        finish();
        boolean reusable = HttpUtil.isKeepAlive(in);
        FullHttpResponse out = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, in.status(), in.content().retain());
        out.headers().set(in.headers());
        dropHopByHop(out.headers());
        out.headers().set(HttpHeaderNames.CONTENT_LENGTH, out.content().readableBytes());
        if (reusable) {
            pool.release(route.upstream(), upstream);
        } else {
            upstream.close();
        }
        reply(out);
    }

    /** Fails the exchange once: the connection, if any, is closed rather than reused. */
    void fail(Failure f, String why) {
        if (done) {
            return;
        }
        finish();
        if (upstream != null) {
            upstream.pipeline().get(UpstreamHandler.class).begin(null);
            upstream.close();
        }
        HttpResponseStatus status = f == Failure.BAD_GATEWAY ? HttpResponseStatus.BAD_GATEWAY : HttpResponseStatus.GATEWAY_TIMEOUT;
        (f == Failure.BAD_GATEWAY ? stats.badGateway : stats.timeouts).incrementAndGet();
        reply(error(status, why));
    }

    /** The client went away: drop the exchange; a connection mid-answer cannot be reused. */
    void abandon() {
        if (done) {
            return;
        }
        finish();
        if (upstream != null) {
            upstream.pipeline().get(UpstreamHandler.class).begin(null);
            upstream.close();
        }
    }

    private void finish() {
        done = true;
        if (timer != null) {
            timer.cancel(false);
        }
        if (request != null) {
            request.release();
            request = null;
        }
    }

    private void reply(FullHttpResponse r) {
        owner.finished(this);
        if (keepAlive) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            client.writeAndFlush(r);
            client.channel().config().setAutoRead(true);
        } else {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            client.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }

    static FullHttpResponse error(HttpResponseStatus status, String why) {
        byte[] body = ("{\"error\":\"" + why.replace("\\", "\\\\").replace("\"", "'") + "\"}").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return r;
    }
}
