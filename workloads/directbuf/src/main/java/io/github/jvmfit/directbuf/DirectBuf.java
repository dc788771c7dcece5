package io.github.jvmfit.directbuf;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;

/**
 * Issue 21's direct-memory service: a Netty HTTP server whose working set,
 * a store of blobs (48 MiB by default), lives in pooled direct ByteBufs, and
 * whose requests are read and answered in pooled direct buffers too. Its heap
 * holds little beyond Netty's own objects.
 */
public final class DirectBuf implements AutoCloseable {
    private final PooledByteBufAllocator alloc = new PooledByteBufAllocator(true);
    private final BlobStore store;
    private final EventLoopGroup group;
    private final Channel channel;

    private DirectBuf(Config c) throws InterruptedException {
        store = new BlobStore(alloc, c.blobCount(), c.blobBytes());
        BlobHandler handler = new BlobHandler(store, new Stats(store, alloc));
        group = new MultiThreadIoEventLoopGroup(c.threads(), NioIoHandler.newFactory());
        try {
            channel = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, alloc)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.ALLOCATOR, alloc)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                    new HttpObjectAggregator(BlobHandler.MAX_BODY), handler);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), c.port()))
                    .sync()
                    .channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            store.close();
            throw e;
        }
    }

    /** Loads the store, then listens on 127.0.0.1 at the configured port (0 = any free one). */
    public static DirectBuf start(Config c) throws InterruptedException {
        return new DirectBuf(c);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        store.close();
    }

    public static void main(String[] args) throws InterruptedException {
        Config c;
        try {
            c = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("directbuf: " + e.getMessage());
            System.exit(2);
            return;
        }
        DirectBuf app = start(c);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close));
        System.out.printf("READY in %d ms on port %d (%d blobs of %d KiB in pooled direct buffers; JDK direct memory %d bytes)%n",
                ManagementFactory.getRuntimeMXBean().getUptime(), app.port(), c.blobCount(), c.blobKiB(), Stats.jdkDirectBytes());
    }
}
