package io.github.jvmfit.sidecar;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;

/**
 * The end of one upstream connection: it hands the response to the exchange
 * in flight, and fails that exchange (502) when the connection breaks first.
 * One exchange at a time: the proxy does not pipeline.
 */
final class UpstreamHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
    private Exchange current;

    void begin(Exchange e) {
        current = e;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
        Exchange e = current;
        current = null;
        if (e == null) {
            // An answer nobody asked for: the connection is out of step.
            ctx.close();
            return;
        }
        if (!r.decoderResult().isSuccess()) {
            ctx.close();
            e.fail(Exchange.Failure.BAD_GATEWAY, "the upstream's response is malformed");
            return;
        }
        e.complete(r);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange e = current;
        current = null;
        if (e != null) {
            e.fail(Exchange.Failure.BAD_GATEWAY, "the upstream closed the connection before it answered");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Exchange e = current;
        current = null;
        ctx.close();
        if (e != null) {
            e.fail(Exchange.Failure.BAD_GATEWAY, "upstream error: " + cause.getMessage());
        }
    }
}
