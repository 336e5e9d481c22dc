package io.chanledger.api.ledger.readmodels;

import io.chanledger.api.ledger.admin.AdminGuard;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.projections.rebuild.ReadModelReplay;
import io.chanledger.projections.rebuild.ReplayStatus;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Admin: rebuild the channel read models from the event store ({@code POST}) and follow it ({@code GET}). */
@RestController
@RequestMapping(path = "/api/admin/replay", produces = MediaType.APPLICATION_JSON_VALUE)
class ReplayController {

    private final AdminGuard admin;
    private final ReadModelReplay replay;

    ReplayController(AdminGuard admin, ReadModelReplay replay) {
        this.admin = admin;
        this.replay = replay;
    }

    @PostMapping
    ResponseEntity<ReplayStatus> start(HttpServletRequest request) {
        admin.require(request);
        ReplayStatus started = replay.start().orElseThrow(() -> new ApiProblem(HttpStatus.CONFLICT, "replay_running",
                "a replay is running; follow it with GET /api/admin/replay"));
        return ResponseEntity.accepted().body(started);
    }

    @GetMapping
    ReplayStatus status(HttpServletRequest request) {
        admin.require(request);
        return replay.status();
    }
}
