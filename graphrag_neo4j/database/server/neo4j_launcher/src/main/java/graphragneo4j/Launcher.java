package graphragneo4j;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.Config;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.io.fs.DefaultFileSystemAbstraction;
import org.neo4j.kernel.impl.security.User;
import org.neo4j.kernel.internal.Version;
import org.neo4j.logging.NullLogProvider;
import org.neo4j.memory.EmptyMemoryTracker;
import org.neo4j.server.CommunityBootstrapper;
import org.neo4j.server.security.SecureHasher;
import org.neo4j.server.security.SystemGraphCredential;
import org.neo4j.server.security.auth.CommunitySecurityModule;
import org.neo4j.server.security.auth.FileUserRepository;

/**
 * Runs a local Neo4j Community server (Bolt, HTTP, Neo4j Browser at /browser) in this JVM.
 *
 * <p>Started by graphrag_neo4j.neo4j_server as
 * {@code java <jvm options> -cp <classpath> graphragneo4j.Launcher --home DIR --bolt-port N
 * --http-port N --pagecache SIZE}. The password of user {@code neo4j} is read from the
 * environment variable {@value #PASSWORD_ENV}, never from the command line: on the first start
 * (no system database yet) it becomes the initial password, exactly as
 * {@code neo4j-admin dbms set-initial-password} would do; later starts keep the stored one.
 * Everything binds to 127.0.0.1 and authentication is always on. SIGTERM/SIGINT stop the
 * server cleanly through the shutdown hook that {@link CommunityBootstrapper} installs.
 * A file {@code conf/neo4j.conf} in the home folder, if present, is read first; the settings
 * below always win over it.
 */
public final class Launcher {
    static final String PASSWORD_ENV = "GRAPHRAG_NEO4J__PASSWORD";
    static final int MIN_PASSWORD_LENGTH = 8;
    static final int EXIT_BAD_USAGE = 2;
    static final String LOCALHOST = "127.0.0.1";
    static final String TX_LOG_RETENTION = "128M size";
    /** Shares of the heap every transaction together, and any one of them, may hold. */
    static final double TX_MEMORY_TOTAL_SHARE = 0.6;
    static final double TX_MEMORY_ONE_SHARE = 0.25;
    static final String USER_LOG_CONFIG = "launcher/user-logs.xml";
    /** Written with this JVM's pid once the server has fully started (Bolt answers earlier). */
    static final String READY_FILE = "run/launcher.ready";
    /**
     * Neo4j's default user log writes logs/neo4j.log itself and also to stdout, which the caller
     * already appends to that same file; two writers would garble it, so log to stdout only.
     */
    static final String USER_LOGS_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Configuration>
                <Appenders>
                    <Console name="ConsoleAppender" target="SYSTEM_OUT">
                        <PatternLayout pattern="%d{yyyy-MM-dd HH:mm:ss.SSSZ}{GMT+0} %-5p %m%n"/>
                    </Console>
                </Appenders>
                <Loggers>
                    <Root level="info">
                        <AppenderRef ref="ConsoleAppender"/>
                    </Root>
                </Loggers>
            </Configuration>
            """;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parseArgs(args);
        Path home = Path.of(require(options, "home")).toAbsolutePath().normalize();
        String password = System.getenv(PASSWORD_ENV);
        if (password == null || password.codePoints().count() < MIN_PASSWORD_LENGTH) {
            fail("the environment variable " + PASSWORD_ENV + " must hold the password of user "
                    + "neo4j, at least " + MIN_PASSWORD_LENGTH + " characters long");
        }
        Map<String, String> settings = serverSettings(home, options);
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("launcher"));
        Files.writeString(home.resolve(USER_LOG_CONFIG), USER_LOGS_XML, StandardCharsets.UTF_8);
        Path readyFile = home.resolve(READY_FILE);
        Files.deleteIfExists(readyFile);
        boolean firstStart = isFirstStart(home);
        if (firstStart) {
            writeInitialPassword(home, settings, password);
            say("first start: the configured password becomes the password of user neo4j");
        } else {
            say("existing database: user neo4j keeps the password stored in " + home.resolve("data"));
        }
        say("starting Neo4j " + Version.getNeo4jVersion() + " (home " + home + ")");
        CommunityBootstrapper bootstrapper = new CommunityBootstrapper();
        int status = bootstrapper.start(home, home.resolve("conf").resolve("neo4j.conf"), settings, false, false);
        if (status != 0) {
            say("Neo4j failed to start (status " + status + "), see the lines above");
            System.exit(status);
        }
        if (firstStart) {
            Files.deleteIfExists(home.resolve("data").resolve("dbms").resolve("auth.ini")); // imported by now
        }
        Files.createDirectories(readyFile.getParent());
        Files.writeString(readyFile, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
        say("ready: Bolt bolt://" + settings.get("server.bolt.listen_address")
                + ", Browser http://" + settings.get("server.http.listen_address") + "/browser/");
        new CountDownLatch(1).await(); // Neo4j's shutdown hook stops the server on SIGTERM.
    }

    /** The server settings; they override anything in conf/neo4j.conf. */
    static Map<String, String> serverSettings(Path home, Map<String, String> options) {
        String bolt = LOCALHOST + ":" + port(options, "bolt-port", 7687);
        String http = LOCALHOST + ":" + port(options, "http-port", 7474);
        Map<String, String> s = new LinkedHashMap<>();
        s.put("server.default_listen_address", LOCALHOST);
        s.put("server.default_advertised_address", LOCALHOST);
        s.put("server.bolt.enabled", "true");
        s.put("server.bolt.listen_address", bolt);
        s.put("server.bolt.advertised_address", bolt);
        s.put("server.bolt.tls_level", "DISABLED");
        s.put("server.http.enabled", "true");
        s.put("server.http.listen_address", http);
        s.put("server.http.advertised_address", http);
        s.put("server.https.enabled", "false");
        // The default "*" lets any web page the user has open drive the HTTP API (Cypher,
        // deletes included) with a guessed password; only the Browser's own origin may.
        s.put("dbms.security.http_access_control_allow_origin", "http://" + http);
        s.put("dbms.security.auth_enabled", "true");
        s.put("dbms.security.auth_minimum_password_length", Integer.toString(MIN_PASSWORD_LENGTH));
        s.put("dbms.usage_report.enabled", "false");
        s.put("client.allow_telemetry", "false"); // Neo4j Browser: no usage reporting
        s.put("server.logs.user.config", home.resolve(USER_LOG_CONFIG).toString());
        s.put("server.memory.pagecache.size", options.getOrDefault("pagecache", "2g"));
        // Neo4j keeps two days of transaction logs by default: 14 GB over the index of one
        // 20 MB text, which filled a disk and made the database read-only. A local server
        // serves no incremental backups or cluster members that would read them.
        s.put("db.tx_log.rotation.retention_policy", TX_LOG_RETENTION);
        // 1 GB kept 515 MB for a 22 MB graph; small files let pruning keep ~160 MB at most.
        s.put("db.tx_log.rotation.size", "32M");
        // One query must not take the heap (a model-written one is the likely culprit): what
        // Neo4j tracks of a transaction (rows collected, sorted, kept distinct, its writes) is
        // refused past a share of the heap, with an error naming the limit. Values built inside
        // one expression are not tracked; their OutOfMemoryError fails that query only, since
        // the JVM is no longer told to exit on one (server/config.py).
        long heap = Runtime.getRuntime().maxMemory();
        s.put("dbms.memory.transaction.total.max", bytes(heap * TX_MEMORY_TOTAL_SHARE));
        s.put("db.memory.transaction.max", bytes(heap * TX_MEMORY_ONE_SHARE));
        // Bolt's Netty event loops otherwise idle 5 s each before a shutdown completes.
        s.put("internal.dbms.bolt.netty_server_shutdown_quiet_period", "1");
        return s;
    }

    /** A byte count as Neo4j's memory settings read it. */
    static String bytes(double amount) {
        return Long.toString((long) amount);
    }

    /** True when the system database (which holds the users) has not been created yet. */
    static boolean isFirstStart(Path home) {
        return !Files.isDirectory(home.resolve("data").resolve("databases").resolve("system"));
    }

    /** Writes data/dbms/auth.ini, which Neo4j imports as user neo4j when it creates the system database. */
    static void writeInitialPassword(Path home, Map<String, String> settings, String password)
            throws Exception {
        Config config = Config.newBuilder()
                .set(GraphDatabaseSettings.neo4j_home, home)
                .setRaw(settings)
                .build();
        Path authFile = CommunitySecurityModule.getInitialUserRepositoryFile(config);
        try (DefaultFileSystemAbstraction fs = new DefaultFileSystemAbstraction()) {
            fs.mkdirs(authFile.getParent());
            if (fs.fileExists(authFile)) {
                fs.deleteFile(authFile);
            }
            FileUserRepository users = new FileUserRepository(
                    fs, authFile, NullLogProvider.getInstance(), EmptyMemoryTracker.INSTANCE);
            users.start();
            byte[] secret = password.getBytes(StandardCharsets.UTF_8);
            users.create(new User("neo4j", null,
                    SystemGraphCredential.createCredentialForPassword(secret, new SecureHasher()), false, false));
            users.shutdown();
        }
    }

    static Map<String, String> parseArgs(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                fail("usage: Launcher --home DIR [--bolt-port N] [--http-port N] [--pagecache SIZE]");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    static String require(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            fail("missing option --" + name);
        }
        return value;
    }

    static int port(Map<String, String> options, String name, int fallback) {
        String value = options.get(name);
        try {
            int port = value == null ? fallback : Integer.parseInt(value);
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            fail("--" + name + " must be a port number, got " + value);
            return -1;
        }
    }

    static void say(String message) {
        System.out.println(Instant.now() + " INFO  [graphrag-neo4j launcher] " + message);
        System.out.flush();
    }

    static void fail(String message) {
        System.err.println(Instant.now() + " ERROR [graphrag-neo4j launcher] " + message);
        System.exit(EXIT_BAD_USAGE);
    }
}
