package io.github.jvmfit.directbuf;

import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * The routes, on whole requests (the aggregator before it gathers a body
 * into pooled direct buffers):
 *
 * <pre>
 * GET /blobs/N   the blob's bytes, sent from its direct buffer without a copy
 * PUT /blobs/N   replaces the blob with the body (1 byte to 1 MiB), copied into a new direct buffer
 * GET /health    {"status":"UP"}
 * GET /stats     the store and the allocator's direct and heap use
 * </pre>
 */
@ChannelHandler.Sharable
final class BlobHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final int MAX_BODY = 1 << 20;

    private final BlobStore store;
    private final Stats stats;
    private final AtomicLong requests = new AtomicLong();

    BlobHandler(BlobStore store, Stats stats) {
        this.store = store;
        this.stats = stats;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (!req.decoderResult().isSuccess()) {
            text(ctx, req, HttpResponseStatus.BAD_REQUEST, "{\"error\":\"malformed request\"}");
            return;
        }
        String path = new QueryStringDecoder(req.uri()).path();
        HttpMethod m = req.method();
        if (path.equals("/health") || path.equals("/stats")) {
            if (!m.equals(HttpMethod.GET)) {
                notAllowed(ctx, req, "GET");
            } else if (path.equals("/health")) {
                text(ctx, req, HttpResponseStatus.OK, "{\"status\":\"UP\"}");
            } else {
                text(ctx, req, HttpResponseStatus.OK, stats.json(requests.get()));
            }
            return;
        }
        if (!path.startsWith("/blobs/")) {
            text(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"no such path\"}");
            return;
        }
        int blob;
        try {
            blob = Integer.parseInt(path.substring("/blobs/".length()));
        } catch (NumberFormatException e) {
            text(ctx, req, HttpResponseStatus.BAD_REQUEST, "{\"error\":\"the blob must be a whole number from 0 to " + (store.count() - 1) + "\"}");
            return;
        }
        if (blob < 0 || blob >= store.count()) {
            text(ctx, req, HttpResponseStatus.NOT_FOUND, "{\"error\":\"no blob " + blob + "; there are " + store.count() + "\"}");
            return;
        }
        requests.incrementAndGet();
        if (m.equals(HttpMethod.GET)) {
            send(ctx, req, HttpResponseStatus.OK, "application/octet-stream", store.get(blob));
        } else if (m.equals(HttpMethod.PUT)) {
            int n = req.content().readableBytes();
            if (n == 0) {
                text(ctx, req, HttpResponseStatus.BAD_REQUEST, "{\"error\":\"empty body: a blob holds 1 byte to " + MAX_BODY + "\"}");
                return;
            }
            store.put(blob, ctx.alloc().directBuffer(n, n).writeBytes(req.content()));
            text(ctx, req, HttpResponseStatus.OK, "{\"blob\":" + blob + ",\"bytes\":" + n + "}");
        } else {
            notAllowed(ctx, req, "GET, PUT");
        }
    }

    private static void notAllowed(ChannelHandlerContext ctx, FullHttpRequest req, String allow) {
        FullHttpResponse r = response(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "application/json",
                ByteBufUtil.writeUtf8(ctx.alloc(), "{\"error\":\"method " + req.method() + " not allowed; use " + allow + "\"}"));
        r.headers().set(HttpHeaderNames.ALLOW, allow);
        ctx.writeAndFlush(r);
    }

    private static void text(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status, String json) {
        send(ctx, req, status, "application/json", ByteBufUtil.writeUtf8(ctx.alloc(), json));
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status, String type, ByteBuf body) {
        ctx.writeAndFlush(response(ctx, status, type, body));
    }

    private static FullHttpResponse response(ChannelHandlerContext ctx, HttpResponseStatus status, String type, ByteBuf body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        HttpUtil.setContentLength(r, body.readableBytes());
        return r;
    }
}
