package io.github.jvmfit.catalog.order;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.jvmfit.catalog.order.OrderDtos.NewLine;
import io.github.jvmfit.catalog.order.OrderDtos.NewOrder;
import io.github.jvmfit.catalog.order.OrderDtos.OrderDetail;
import io.github.jvmfit.catalog.order.OrderDtos.OrderSummary;
import io.github.jvmfit.catalog.product.Product;
import io.github.jvmfit.catalog.product.ProductService;
import io.github.jvmfit.catalog.web.BadRequestException;
import io.github.jvmfit.catalog.web.ConflictException;
import io.github.jvmfit.catalog.web.NotFoundException;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class OrderService {
    /** The moves an order may make; anything else is a 409. */
    private static final Map<OrderStatus, Set<OrderStatus>> NEXT = Map.of(
            OrderStatus.NEW, Set.of(OrderStatus.PAID, OrderStatus.CANCELLED),
            OrderStatus.PAID, Set.of(OrderStatus.SHIPPED, OrderStatus.CANCELLED),
            OrderStatus.SHIPPED, Set.of(),
            OrderStatus.CANCELLED, Set.of());

    private final OrderRepository orders;
    private final ProductService products;

    OrderService(OrderRepository orders, ProductService products) {
        this.orders = orders;
        this.products = products;
    }

    public Page<OrderSummary> list(OrderStatus status, String customerEmail, Pageable page) {
        Page<CustomerOrder> found;
        if (customerEmail != null && !customerEmail.isBlank()) {
            found = orders.findByCustomerEmailIgnoreCase(customerEmail.strip(), page);
        } else if (status != null) {
            found = orders.findByStatus(status, page);
        } else {
            found = orders.findAll(page);
        }
        return found.map(OrderSummary::of);
    }

    public OrderDetail get(long id) {
        return OrderDetail.of(orders.findWithLinesById(id).orElseThrow(() -> new NotFoundException("order", id)));
    }

    /** Takes every line's quantity from stock in one transaction: all lines or none. */
    @Transactional
    public OrderDetail place(NewOrder r) {
        CustomerOrder o = new CustomerOrder(r.customerEmail().strip().toLowerCase(Locale.ROOT));
        for (NewLine l : r.lines()) {
            Product p;
            try {
                p = products.lockedEntity(l.productId());
            } catch (NotFoundException e) {
                throw new BadRequestException("productId " + l.productId() + " does not exist");
            }
            if (!p.take(l.quantity())) {
                throw new ConflictException("product " + p.getId() + " has " + p.getStock() + " in stock, "
                        + l.quantity() + " ordered");
            }
            o.add(new OrderLine(o, p, l.quantity()));
        }
        return OrderDetail.of(orders.save(o));
    }

    @Transactional
    public OrderDetail changeStatus(long id, OrderStatus to) {
        CustomerOrder o = orders.findWithLinesById(id).orElseThrow(() -> new NotFoundException("order", id));
        if (!NEXT.get(o.getStatus()).contains(to)) {
            throw new ConflictException("order " + id + " is " + o.getStatus() + "; it cannot become " + to);
        }
        o.setStatus(to);
        return OrderDetail.of(o);
    }
}
