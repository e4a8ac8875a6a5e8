// Smoke test for the local Kafka broker, run by deploy/local/up.sh.
// Uses only kafka-clients (already in the broker's classpath): waits for the
// cluster, creates the probe topic if needed, produces one record and reads it
// back through a consumer group (which also proves the group coordinator and
// __consumer_offsets work). Exit 0 on success, 1 on failure or timeout.
//
// Usage: java -cp '<libs>/*:<classes>' KafkaProbe <bootstrap> <timeoutSeconds>

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class KafkaProbe {
    private static final String TOPIC = "toolgate-stack-probe";
    private static final String GROUP = "toolgate-stack-probe";

    public static void main(String[] args) {
        String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
        long timeoutSec = args.length > 1 ? Long.parseLong(args[1]) : 60;
        long deadline = System.currentTimeMillis() + timeoutSec * 1000;
        try {
            run(bootstrap, deadline);
            System.exit(0);
        } catch (Exception e) {
            System.err.println("kafka probe FAILED: " + e);
            System.exit(1);
        }
    }

    private static long remaining(long deadline) throws Exception {
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) throw new Exception("timed out");
        return left;
    }

    private static void run(String bootstrap, long deadline) throws Exception {
        Properties base = new Properties();
        base.put("bootstrap.servers", bootstrap);
        base.put("client.id", "toolgate-stack-probe");
        base.put("request.timeout.ms", "5000");
        base.put("default.api.timeout.ms", "10000");
        base.put("reconnect.backoff.max.ms", "1000");

        // 1. Cluster reachable and topic present (retry while the broker starts).
        Exception last = null;
        while (true) {
            try (Admin admin = Admin.create(base)) {
                int nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                if (nodes < 1) throw new Exception("cluster has no live brokers yet");
                try {
                    admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)
                            .configs(Map.of("retention.ms", "3600000"))))
                        .all().get(10, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) throw e;
                }
                break;
            } catch (Exception e) {
                last = e;
                if (System.currentTimeMillis() + 1000 >= deadline) {
                    throw new Exception("broker not ready: " + last, last);
                }
                Thread.sleep(1000);
            }
        }

        // 2. Produce one record.
        String value = "probe-" + UUID.randomUUID();
        Properties pp = new Properties();
        pp.putAll(base);
        pp.put("acks", "all");
        pp.put("max.block.ms", "15000");
        pp.put("delivery.timeout.ms", "20000");
        pp.put("key.serializer", StringSerializer.class.getName());
        pp.put("value.serializer", StringSerializer.class.getName());
        RecordMetadata md;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
            md = producer.send(new ProducerRecord<>(TOPIC, "probe", value))
                .get(remaining(deadline), TimeUnit.MILLISECONDS);
        }

        // 3. Consume it back through a consumer group.
        Properties cp = new Properties();
        cp.putAll(base);
        cp.put("group.id", GROUP);
        cp.put("auto.offset.reset", "earliest");
        cp.put("enable.auto.commit", "false");
        cp.put("key.deserializer", StringDeserializer.class.getName());
        cp.put("value.deserializer", StringDeserializer.class.getName());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp)) {
            consumer.subscribe(List.of(TOPIC));
            while (true) {
                remaining(deadline);
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (value.equals(r.value())) {
                        consumer.commitSync(Duration.ofSeconds(10));
                        System.out.println("kafka probe ok: " + md.topic() + "-" + md.partition()
                            + "@" + md.offset() + " round-tripped through group " + GROUP);
                        return;
                    }
                }
            }
        }
    }
}
