package io.github.jvmfit.sidecar;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * Seed 004's sidecar: an HTTP/1.1 reverse proxy that listens on 127.0.0.1
 * and forwards each request to the upstream its path prefix names, over a
 * pool of keep-alive connections, with a connect timeout and a response
 * timeout and no retries. One event loop by default (--threads): a sidecar
 * at 1,000 req/s needs no more, and each loop adds a thread and buffers.
 */
public final class Sidecar implements AutoCloseable {
    static final int MAX_REQUEST = 1 << 20;

    private final EventLoopGroup group;
    private final Channel channel;
    final Stats stats = new Stats();

    private Sidecar(Config c) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(c.threads(), NioIoHandler.newFactory());
        Map<EventLoop, UpstreamPool> pools = new ConcurrentHashMap<>();
        try {
            channel = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST),
                                    new ProxyHandler(c, stats, pools));
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), c.port()))
                    .sync()
                    .channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Listens on 127.0.0.1 at the configured port (0 = any free one). */
    public static Sidecar start(Config c) throws InterruptedException {
        return new Sidecar(c);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    public static void main(String[] args) throws InterruptedException {
        Config c;
        try {
            c = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("sidecar: " + e.getMessage());
            System.exit(2);
            return;
        }
        Sidecar app = start(c);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close));
        System.out.printf("READY in %d ms on port %d (%d event loop(s), timeout %d ms, pool %d per upstream)%n",
                ManagementFactory.getRuntimeMXBean().getUptime(), app.port(), c.threads(), c.timeoutMs(), c.pool());
    }
}
