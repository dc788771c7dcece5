package io.github.jvmfit.sidecar;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;

/**
 * Keep-alive connections to the upstreams, one pool per event loop: a
 * downstream connection and the upstream connections it borrows share one
 * thread, so the pool needs no lock and a request never changes threads.
 * Idle connections are kept up to {@code max} per upstream; one that closes
 * while idle leaves the pool.
 */
final class UpstreamPool {
    static final int MAX_RESPONSE = 8 << 20;

    private final EventLoop loop;
    private final Config config;
    private final Stats stats;
    private final Map<InetSocketAddress, ArrayDeque<Channel>> idle = new HashMap<>();

    UpstreamPool(EventLoop loop, Config config, Stats stats) {
        this.loop = loop;
        this.config = config;
        this.stats = stats;
    }

    /** Gives an open connection to addr, pooled or new, or the cause it could not. Call on the loop. */
    void acquire(InetSocketAddress addr, BiConsumer<Channel, Throwable> then) {
        ArrayDeque<Channel> q = idle.get(addr);
        while (q != null && !q.isEmpty()) {
            Channel ch = q.pollLast();
            if (ch.isActive()) {
                stats.reused.incrementAndGet();
                then.accept(ch, null);
                return;
            }
        }
        ChannelFuture f = new Bootstrap()
                .group(loop)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMs())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_RESPONSE), new UpstreamHandler());
                    }
                })
                .connect(addr);
        f.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                Channel ch = done.channel();
                stats.opened.incrementAndGet();
                // Once per connection: one that closes while idle leaves the pool.
                ch.closeFuture().addListener(c -> {
                    ArrayDeque<Channel> kept = idle.get(addr);
                    if (kept != null) {
                        kept.remove(ch);
                    }
                });
                then.accept(ch, null);
            } else {
                then.accept(null, done.cause());
            }
        });
    }

    /** Takes a connection back after a whole exchange; closes it when the pool is full. */
    void release(InetSocketAddress addr, Channel ch) {
        if (!ch.isActive()) {
            return;
        }
        ArrayDeque<Channel> q = idle.computeIfAbsent(addr, a -> new ArrayDeque<>());
        if (q.size() >= config.pool()) {
            ch.close();
            return;
        }
        q.addLast(ch);
    }
}
